// The crypto favourites star (SPEC §7 /coin/collect/add, /coin/collect/del): on the trading screen's pair
// bar and the crypto chart's navigation bar. Signed out, it leads to sign-in and back.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { loginPath } from '../../app/navigation.ts';
import { useSession } from '../../app/session.ts';
import { StarIcon } from '../markets/icons.tsx';
import { pairSymbolOf, setCoinFavourite, spotKeys, useCoinFavourites } from './spot-api.ts';

export function CoinStar({ symbol }: { symbol: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pair = pairSymbolOf(symbol);
  const favourites = useCoinFavourites(Boolean(session.token));
  const isStarred = favourites.data?.items.some((q) => pairSymbolOf(q.symbol) === pair) ?? false;
  const toggle = useMutation({
    mutationFn: () => setCoinFavourite(pair, !isStarred),
    onSuccess: () => {
      Toast.show({ content: t(isStarred ? 'spot.unstarred' : 'spot.starred') });
      void queryClient.invalidateQueries({ queryKey: spotKeys.favourites });
      void queryClient.invalidateQueries({ queryKey: spotKeys.pairs });
    },
  });
  return (
    <button
      type="button"
      className={isStarred ? 'icon-button star star--on' : 'icon-button star'}
      aria-pressed={isStarred}
      aria-label={t(isStarred ? 'spot.removeFavourite' : 'spot.addFavourite')}
      disabled={toggle.isPending}
      data-testid="coin-star"
      onClick={() => {
        if (!session.token) {
          navigate(`${loginPath}?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
          return;
        }
        toggle.mutate();
      }}
    >
      <StarIcon filled={isStarred} />
    </button>
  );
}
