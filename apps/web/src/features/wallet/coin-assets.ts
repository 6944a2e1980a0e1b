// The coin wallets as POST /coin/assets answers them (spot and contract, valued in USDT), shared by the
// assets, crypto records, convert and transfer screens; and how a coin amount is written.
import type { CoinAssetsView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { apiPost } from '../../app/api.ts';
import { useSession } from '../../app/session.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { coinDigits } from '../exchange/coin-math.ts';

export const coinAssetsKey = ['coin', 'assets'] as const;

/** A coin amount with the decimals it has: "0.01050526 BTC", "4,000.00 USDT". */
export function coinText(value: string, asset: string): string {
  return formatAmount(value, asset, currentLanguage(), { digits: coinDigits(value) });
}

export function useCoinAssets() {
  const session = useSession();
  return useQuery({
    queryKey: coinAssetsKey,
    queryFn: () => apiPost<CoinAssetsView>('/coin/assets', undefined, { isBackground: true }),
    enabled: Boolean(session.token),
    refetchInterval: 15_000,
  });
}
