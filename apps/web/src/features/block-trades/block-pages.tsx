// Block trades (SPEC stockBulk): bulkList (the offers and whether this customer may bid, with the reason
// when not), bulkDetail?id= (an offer: price, band, lot, window, disclosed seller; a bid in whole lots
// while the window is open, confirmed with the transaction password; the customer's bids on it, each
// cancellable until the close) and bulkOrder (every block order of the customer's with its state:
// applied, allotted, partly allotted, not allotted, cancelled; allotted shares locked until T+1).
// Amounts are the server's exact decimal strings; the amount held is computed with @bourse/money.

import type { BlockBidView, BlockOfferDetailView, BlockOfferView, Paged } from '@bourse/contract';
import { formatDecimal, parseDecimal } from '@bourse/money';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog, Toast } from 'antd-mobile';
import type { TFunction } from 'i18next';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { apiGet, apiPost } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { ChevronRightIcon, ListIcon } from '../../app/shell/icons.tsx';
import { PasscodeConfirmSheet } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { formatAmount } from '../../lib/market-format.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { EmptyState, ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import { timeZoneOfCurrency } from '../stocks/trading-ui.tsx';
import './block.css';

const keys = {
  list: ['block', 'offers'] as const,
  offer: (id: string) => ['block', 'offer', id] as const,
  orders: ['block', 'orders'] as const,
};

type OfferList = { items: BlockOfferView[]; eligibility: BlockOfferDetailView['eligibility'] };

const money = (value: string, currency: string) => formatAmount(value, currency, currentLanguage());

function when(ms: number, currency: string, style: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(currentLanguage(), { ...style, timeZone: timeZoneOfCurrency(currency) }).format(ms);
}

function windowText(t: TFunction, o: { opensAt: number; closesAt: number; currency: string }) {
  return t('block.windowValue', {
    date: when(o.opensAt, o.currency, { dateStyle: 'medium' }),
    opens: when(o.opensAt, o.currency, { timeStyle: 'short' }),
    closes: when(o.closesAt, o.currency, { timeStyle: 'short' }),
  });
}

function PhaseChip({ phase }: { phase: BlockOfferView['phase'] }) {
  const { t } = useTranslation();
  return (
    <span className={`blk-chip blk-chip--${phase}`} data-testid="block-phase">
      {t(`block.phase.${phase}`)}
    </span>
  );
}

function StatusChip({ status }: { status: BlockBidView['status'] }) {
  const { t } = useTranslation();
  return (
    <span className={`blk-chip blk-chip--${status}`} data-testid="block-status">
      {t(`block.status.${status}`)}
    </span>
  );
}

function Eligibility({ eligibility }: { eligibility: OfferList['eligibility'] }) {
  const { t } = useTranslation();
  if (eligibility.eligible) return null;
  return (
    <div className="blk-notice" role="note" data-testid="block-ineligible">
      <p className="blk-notice__title">{t('block.notEligible')}</p>
      <p>{eligibility.message}</p>
      {eligibility.reason === 'kyc' && (
        <Link className="btn btn--primary blk-notice__action" to="/pages/user/kyc">
          {t('block.verify')}
        </Link>
      )}
    </div>
  );
}

// --- stockBulk/bulkList -----------------------------------------------------------------------------------

function OfferCard({ offer }: { offer: BlockOfferView }) {
  const { t } = useTranslation();
  return (
    <li>
      <Link className="blk-card" to={`/pages/stockBulk/bulkDetail?id=${offer.id}`} data-testid="block-offer">
        <span className="blk-card__top">
          <span className="blk-card__name">
            <strong>{offer.name}</strong>
            <span className="muted">{offer.symbol}</span>
          </span>
          <PhaseChip phase={offer.phase} />
        </span>
        <span className="blk-card__grid tabular">
          <span>
            <span className="blk-label">{t('block.price')}</span>
            {money(offer.price, offer.currency)}
          </span>
          <span>
            <span className="blk-label">{t('block.quantity')}</span>
            {Number(offer.quantity).toLocaleString(currentLanguage())}
          </span>
        </span>
        <span className="blk-card__foot">
          <span>
            {t('block.window')}: {windowText(t, offer)}
          </span>
          <ChevronRightIcon size={16} />
        </span>
      </Link>
    </li>
  );
}

export function BulkListPage() {
  const { t } = useTranslation();
  const offers = useQuery({
    queryKey: keys.list,
    queryFn: () => apiGet<OfferList>('/stock/index/bulk/list', undefined, { isBackground: true }),
    refetchInterval: 15_000,
  });
  return (
    <RequireLogin>
      <Page title={t('titles.stockBulk.bulkList')}>
        <p className="section-hint">{t('block.intro')}</p>
        <div className="list">
          <Link className="list-row" to="/pages/stockBulk/bulkOrder" data-testid="block-my-orders">
            <span className="menu-row__icon">
              <ListIcon />
            </span>
            <span className="list-row__label">{t('block.myOrders')}</span>
            <ChevronRightIcon size={18} />
          </Link>
        </div>
        {offers.isPending ? (
          <SkeletonRows count={3} height={96} />
        ) : offers.isError ? (
          <ErrorState onRetry={() => void offers.refetch()} />
        ) : (
          <>
            <Eligibility eligibility={offers.data.eligibility} />
            {offers.data.items.length === 0 ? (
              <EmptyState title={t('block.empty')} />
            ) : (
              <ul className="blk-list" data-testid="block-offers">
                {offers.data.items.map((offer) => (
                  <OfferCard key={offer.id} offer={offer} />
                ))}
              </ul>
            )}
          </>
        )}
      </Page>
    </RequireLogin>
  );
}

// --- stockBulk/bulkDetail ---------------------------------------------------------------------------------

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="blk-row" data-testid={testId}>
      <dt>{label}</dt>
      <dd className="tabular">{children}</dd>
    </div>
  );
}

function BidRow({ bid, onCancel }: { bid: BlockBidView; onCancel?: (bid: BlockBidView) => void }) {
  const { t } = useTranslation();
  const settled = bid.status !== 'applied' && bid.status !== 'cancelled';
  return (
    <div className="blk-bid" data-testid="block-bid">
      <div className="blk-card__top">
        <span className="blk-card__name">
          <strong>{bid.name}</strong>
          <span className="muted">
            {when(bid.createdAt, bid.currency, { dateStyle: 'medium', timeStyle: 'short' })}
          </span>
        </span>
        <StatusChip status={bid.status} />
      </div>
      <dl className="blk-rows">
        <Row label={t('block.yourQuantity')}>{Number(bid.quantity).toLocaleString(currentLanguage())}</Row>
        <Row label={t('block.price')}>{money(bid.price, bid.currency)}</Row>
        {bid.status === 'applied' && (
          <Row label={t('block.held')} testId="block-held">
            {money(bid.amount, bid.currency)}
          </Row>
        )}
        {settled && (
          <>
            <Row label={t('block.allottedQty')}>{Number(bid.allottedQuantity).toLocaleString(currentLanguage())}</Row>
            <Row label={t('block.paid')}>{money(bid.paid, bid.currency)}</Row>
          </>
        )}
        {(settled || bid.status === 'cancelled') && (
          <Row label={t('block.released')}>{money(bid.released, bid.currency)}</Row>
        )}
        {settled && bid.allottedQuantity !== '0' && (
          <Row label={t('block.unlocks')}>
            {bid.locked
              ? t('block.lockedUntil', { date: when(bid.unlocksAt, bid.currency, { dateStyle: 'medium' }) })
              : t('block.unlocked')}
          </Row>
        )}
      </dl>
      {onCancel && bid.status === 'applied' && (
        <button
          type="button"
          className="btn btn--outline blk-bid__cancel"
          onClick={() => onCancel(bid)}
          data-testid="block-cancel"
        >
          {t('block.cancel')}
        </button>
      )}
    </div>
  );
}

function BidForm({ detail, onPlaced }: { detail: BlockOfferDetailView; onPlaced: () => void }) {
  const { t } = useTranslation();
  const { offer } = detail;
  const [lots, setLots] = useState('1');
  const [confirmKey, setConfirmKey] = useState<string | null>(null);
  const count = /^\d{1,6}$/.test(lots) ? Number(lots) : 0;
  const maxLots = Number(BigInt(offer.quantity) / BigInt(offer.lot));
  const scale = offer.lotAmount.split('.')[1]?.length ?? 0;
  const hold = formatDecimal(parseDecimal(offer.lotAmount, scale) * BigInt(count), scale);
  const quantity = String(BigInt(offer.lot) * BigInt(count));
  const isValid = count >= 1 && count <= maxLots;
  return (
    <section className="blk-form" aria-label={t('block.bid')}>
      <label className="blk-form__field">
        <span className="blk-label">
          {t('block.lots')} ({t('block.lotValue', { lot: offer.lot, amount: money(offer.lotAmount, offer.currency) })})
        </span>
        <input
          className="blk-input tabular"
          inputMode="numeric"
          value={lots}
          onChange={(e) => setLots(e.target.value.replace(/\D/g, '').slice(0, 6))}
          data-testid="block-lots"
        />
      </label>
      <dl className="blk-rows">
        <Row label={t('block.yourQuantity')}>{Number(quantity).toLocaleString(currentLanguage())}</Row>
        <Row label={t('block.toHold')} testId="block-to-hold">
          {money(hold, offer.currency)}
        </Row>
        <Row label={t('block.available')}>{money(detail.available, offer.currency)}</Row>
      </dl>
      <button
        type="button"
        className="btn btn--primary blk-form__submit"
        disabled={!isValid}
        onClick={() => setConfirmKey(newIdempotencyKey())}
        data-testid="block-bid"
      >
        {t('block.bid')}
      </button>
      <PasscodeConfirmSheet
        isOpen={confirmKey !== null}
        orderKey={confirmKey ?? ''}
        rows={[
          [t('block.price'), money(offer.price, offer.currency)],
          [t('block.yourQuantity'), Number(quantity).toLocaleString(currentLanguage())],
          [t('block.toHold'), money(hold, offer.currency)],
        ]}
        notice={<p className="confirm__notice">{t('block.rules')}</p>}
        submit={(password, clientOrderId) =>
          apiPost<BlockBidView>(
            '/stock/order/bulk/apply',
            { offerId: offer.id, quantity, password, clientOrderId },
            { isSilent: true, idempotencyKey: clientOrderId },
          )
        }
        onDone={() => {
          setConfirmKey(null);
          Toast.show({ content: t('block.placed') });
          onPlaced();
        }}
        onClose={() => setConfirmKey(null)}
      />
    </section>
  );
}

function OfferDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: keys.offer(id),
    queryFn: () => apiGet<BlockOfferDetailView>('/stock/index/bulk/info', { id }),
    refetchInterval: 10_000,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['block'] });
    void queryClient.invalidateQueries({ queryKey: ['user'] });
  };
  const cancel = useMutation({
    mutationFn: (bid: BlockBidView) => apiPost<BlockBidView>('/stock/order/bulk/cancel', { id: bid.id }),
    onSuccess: () => {
      Toast.show({ content: t('block.cancelled') });
      refresh();
    },
  });
  if (detail.isPending) return <SkeletonRows count={6} />;
  if (detail.isError) return <ErrorState onRetry={() => void detail.refetch()} />;
  const { offer, eligibility, bids } = detail.data;
  return (
    <div className="padded">
      <div className="blk-card__top blk-head">
        <span className="blk-card__name">
          <strong>{offer.name}</strong>
          <span className="muted">{offer.symbol}</span>
        </span>
        <PhaseChip phase={offer.phase} />
      </div>
      <dl className="blk-rows" data-testid="block-offer-detail">
        <Row label={t('block.price')}>{money(offer.price, offer.currency)}</Row>
        <Row label={t('block.reference')}>{money(offer.referencePrice, offer.currency)}</Row>
        <Row label={t('block.band')}>
          {money(offer.bandLow, offer.currency)} – {money(offer.bandHigh, offer.currency)}
        </Row>
        <Row label={t('block.quantity')}>{Number(offer.quantity).toLocaleString(currentLanguage())}</Row>
        <Row label={t('block.lot')}>
          {t('block.lotValue', { lot: offer.lot, amount: money(offer.lotAmount, offer.currency) })}
        </Row>
        <Row label={t('block.window')}>{windowText(t, offer)}</Row>
        <Row label={t('block.seller')} testId="block-seller">
          {offer.seller}
        </Row>
        <Row label={t('block.unlocks')}>{when(offer.unlocksAt, offer.currency, { dateStyle: 'medium' })}</Row>
        {offer.bidQuantity !== null && (
          <Row label={t('block.subscribed')}>
            {Number(offer.bidQuantity).toLocaleString(currentLanguage())} /{' '}
            {Number(offer.allottedQuantity).toLocaleString(currentLanguage())}
          </Row>
        )}
      </dl>
      <Eligibility eligibility={eligibility} />
      {offer.phase === 'upcoming' && (
        <p className="section-hint">
          {t('block.upcomingHint', { time: when(offer.opensAt, offer.currency, { timeStyle: 'short' }) })}
        </p>
      )}
      {offer.phase === 'closed' && <p className="section-hint">{t('block.closedHint')}</p>}
      {offer.phase === 'open' && eligibility.eligible && <BidForm detail={detail.data} onPlaced={refresh} />}
      <p className="section-hint">{t('block.rules')}</p>
      {bids.length > 0 && (
        <>
          <h2 className="day-head">{t('block.yourBids')}</h2>
          <ul className="blk-list" data-testid="block-bids">
            {bids.map((bid) => (
              <li key={bid.id}>
                <BidRow
                  bid={bid}
                  onCancel={
                    offer.phase === 'open'
                      ? async (b) => {
                          const isConfirmed = await Dialog.confirm({
                            content: t('block.cancelConfirm'),
                            confirmText: t('block.cancel'),
                            cancelText: t('common.cancel'),
                          });
                          if (isConfirmed) cancel.mutate(b);
                        }
                      : undefined
                  }
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export function BulkDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <RequireLogin>
      <Page title={t('titles.stockBulk.bulkDetail')}>
        {/^\d{1,15}$/.test(id) ? <OfferDetail id={id} /> : <EmptyState title={t('block.empty')} />}
      </Page>
    </RequireLogin>
  );
}

// --- stockBulk/bulkOrder ----------------------------------------------------------------------------------

export function BulkOrderPage() {
  const { t } = useTranslation();
  const orders = useQuery({
    queryKey: keys.orders,
    queryFn: () => apiGet<Paged<BlockBidView>>('/stock/order/trade/list', { page: 1, limit: 50 }),
    refetchInterval: 15_000,
  });
  return (
    <RequireLogin>
      <Page title={t('titles.stockBulk.bulkOrder')}>
        {orders.isPending ? (
          <SkeletonRows count={3} height={120} />
        ) : orders.isError ? (
          <ErrorState onRetry={() => void orders.refetch()} />
        ) : orders.data.items.length === 0 ? (
          <EmptyState
            title={t('block.noOrders')}
            action={
              <Link className="btn btn--primary" to="/pages/stockBulk/bulkList">
                {t('titles.stockBulk.bulkList')}
              </Link>
            }
          />
        ) : (
          <ul className="blk-list padded" data-testid="block-orders">
            {orders.data.items.map((bid) => (
              <li key={bid.id} className="blk-order">
                <Link className="blk-order__link" to={`/pages/stockBulk/bulkDetail?id=${bid.offerId}`}>
                  <BidRow bid={bid} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Page>
    </RequireLogin>
  );
}
