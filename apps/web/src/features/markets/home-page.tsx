// Home tab (SPEC §2 pages/tabbar/home): market status, live index cards, banners, notices, the hot
// list and news, for the chosen stock country. Kept light: no chart code and no antd-mobile
// components beyond the shell's, so the first screen loads fast.
import type { QuoteView } from '@bourse/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePlatformProps } from '../../app/api.ts';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import type { MarketCode } from '../../lib/format.ts';
import { marketFormats } from '../../lib/format.ts';
import { formatChange, formatPercentChange, formatPrice, quoteLocale } from '../../lib/market-format.ts';
import { formatChatTime, formatDateTime } from '../../lib/time.ts';
import { UnreadBell } from '../content/unread-bell.tsx';
import { adsQuery, homeNewsQuery, type NewsView, noticesQuery } from './home-data.ts';
import { useCountries, useHotList, useIndices, useLiveQuotes } from './market-api.ts';
import { directionOf, priceDigits } from './market-math.ts';
import {
  CountrySwitch,
  EmptyState,
  ErrorState,
  klinePath,
  QuoteRow,
  SkeletonRows,
  useFlash,
  useStockCountry,
} from './market-ui.tsx';

export function MarketStatusLine({ country }: { country: MarketCode }) {
  const { t } = useTranslation();
  const countries = useCountries();
  const info = countries.data?.items.find((c) => c.code === country);
  if (!info) return <p className="market-status market-status--pending">&nbsp;</p>;
  const timeZone = marketFormats[country].timeZone;
  const when = info.isOpen ? info.nextClose : info.nextOpen;
  return (
    <p className={`market-status market-status--${info.isOpen ? 'open' : 'closed'}`} data-testid="market-status">
      <span className="market-status__dot" aria-hidden="true" />
      <span>
        <strong>{info.exchanges.join(' · ')}</strong> {info.isOpen ? t('markets.open') : t('markets.closed')}
        {when ? (
          <>
            {' · '}
            {t(info.isOpen ? 'markets.closesAt' : 'markets.opensAt', {
              time: formatDateTime(when, timeZone),
              zone: t(`markets.zones.${country}`),
            })}
          </>
        ) : null}
      </span>
    </p>
  );
}

function IndexCard({ quote }: { quote: QuoteView }) {
  const locale = quoteLocale(quote, currentLanguage());
  const direction = directionOf(quote.change);
  const flash = useFlash(quote.price);
  const digits = priceDigits(quote.tickSize);
  return (
    <Link className={`index-card index-card--${direction}`} to={klinePath(quote)} data-testid="index-card">
      <span className="index-card__name">{quote.name}</span>
      <span className={`index-card__price tabular ${flash}`}>{formatPrice(quote.price, locale, digits)}</span>
      <span className="index-card__change tabular">
        {formatChange(quote.change, locale, digits)} {formatPercentChange(quote.changePct, locale)}
      </span>
    </Link>
  );
}

function IndexCards({ country }: { country: MarketCode }) {
  const { t } = useTranslation();
  const indices = useIndices(country);
  const items = indices.data?.items ?? [];
  const live = useLiveQuotes(items.map((q) => q.id));
  if (indices.isPending) {
    return (
      <div className="index-cards" data-testid="skeleton">
        {[0, 1, 2].map((i) => (
          <div key={i} className="index-card index-card--skeleton skeleton-block" />
        ))}
      </div>
    );
  }
  if (indices.isError) return <ErrorState onRetry={() => void indices.refetch()} />;
  if (items.length === 0) return <EmptyState title={t('markets.noIndices')} />;
  return (
    <section className="index-cards" aria-label={t('markets.indices')}>
      {items.map((quote) => (
        <IndexCard key={quote.id} quote={live(quote)} />
      ))}
    </section>
  );
}

function Banners() {
  const ads = useQuery(adsQuery);
  const items = ads.data?.items ?? [];
  if (ads.isPending) return <div className="banners banners--skeleton skeleton-block" />;
  if (items.length === 0) return null;
  return (
    <section className="banners">
      {items.map((ad, index) => {
        const isInternal = ad.link.startsWith('/pages/');
        // The first banner is on the first screen (often its largest paint): not lazy.
        const image = (
          <img src={ad.image} alt={ad.title} loading={index === 0 ? 'eager' : 'lazy'} width={358} height={120} />
        );
        return isInternal ? (
          <Link key={ad.id} to={ad.link} className="banners__item">
            {image}
          </Link>
        ) : (
          <a key={ad.id} href={ad.link || undefined} className="banners__item" rel="noopener noreferrer">
            {image}
          </a>
        );
      })}
    </section>
  );
}

function Notices() {
  const { t } = useTranslation();
  const notices = useQuery(noticesQuery);
  const items = notices.data?.items ?? [];
  if (items.length === 0) return null;
  const text = items.map((n) => n.title).join('   •   ');
  return (
    <Link className="notice-bar" to="/pages/notice/list" data-testid="notice-bar">
      <span className="notice-bar__label">{t('markets.notice')}</span>
      <span className="notice-bar__track">
        <span className="notice-bar__text">{text}</span>
      </span>
    </Link>
  );
}

function HotList({ country }: { country: MarketCode }) {
  const { t } = useTranslation();
  const hot = useHotList(country);
  const items = hot.data?.items ?? [];
  const live = useLiveQuotes(items.map((q) => q.id));
  return (
    <section aria-labelledby="hot-title">
      <div className="section-head">
        <h2 className="section-head__title" id="hot-title">
          {t('markets.hot')}
        </h2>
        <Link className="section-head__more" to="/pages/tabbar/markets">
          {t('markets.seeAll')}
        </Link>
      </div>
      {hot.isPending ? (
        <SkeletonRows count={5} />
      ) : hot.isError ? (
        <ErrorState onRetry={() => void hot.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={t('markets.noHot')} hint={t('markets.noHotHint')} />
      ) : (
        <ul className="quote-list">
          {items.slice(0, 10).map((quote) => (
            <QuoteRow key={quote.id} quote={live(quote)} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function NewsItem({ item, now, timeZone }: { item: NewsView; now: number; timeZone: string }) {
  return (
    <li>
      <Link className="news-row" to={`/pages/news/detail?id=${encodeURIComponent(String(item.id))}`}>
        <span className="news-row__title">{item.title}</span>
        {item.summary && <span className="news-row__summary">{item.summary}</span>}
        <span className="news-row__meta">
          {item.source} · {formatChatTime(item.at, now, currentLanguage(), timeZone)}
        </span>
      </Link>
    </li>
  );
}

function News({ country }: { country: MarketCode }) {
  const { t } = useTranslation();
  const news = useQuery(homeNewsQuery);
  const items = news.data?.items ?? [];
  const now = Date.now();
  return (
    <section aria-labelledby="news-title">
      <div className="section-head">
        <h2 className="section-head__title" id="news-title">
          {t('markets.news')}
        </h2>
        <Link className="section-head__more" to="/pages/news/list">
          {t('markets.seeAll')}
        </Link>
      </div>
      {news.isPending ? (
        <SkeletonRows count={3} height={72} />
      ) : news.isError ? (
        <ErrorState onRetry={() => void news.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={t('markets.noNews')} />
      ) : (
        <ul className="news-list">
          {items.map((item) => (
            <NewsItem key={item.id} item={item} now={now} timeZone={marketFormats[country].timeZone} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function HomePage() {
  const { t } = useTranslation();
  const props = usePlatformProps();
  const [country, setCountry] = useStockCountry(props.data?.stockCountry);
  return (
    <Page title={t('titles.tabbar.home')} left="menu" right={<UnreadBell />} hasTabBar>
      <div className="home-top">
        <CountrySwitch value={country} onChange={setCountry} />
        <MarketStatusLine country={country} />
      </div>
      <IndexCards country={country} />
      <Banners />
      <Notices />
      <HotList country={country} />
      <News country={country} />
      <p className="data-note">{t('markets.dataNote')}</p>
    </Page>
  );
}
