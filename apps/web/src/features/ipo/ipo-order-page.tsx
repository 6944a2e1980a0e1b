// Apply for an IPO (pages/stockIPO/ipoOrder?id=…): the retail (online) form with up to 3 bids of whole
// lots at a price in the band or at cut-off, the amount that will be held (the highest bid) shown
// before confirming, and the offline (NII) form for amounts above the retail ceiling (one bid at a
// price, nothing held until allotment). Confirmed with the 6-digit transaction password; the request
// carries an idempotency key kept for a retry after a lost answer (PasscodeConfirmSheet).

import type { ApplyIpoInput, ApplyOfflineIpoInput, IpoApplicationResult, IpoView } from '@bourse/contract';
import { compareDecimal } from '@bourse/money';
import { Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiPost } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { useSession } from '../../app/session.ts';
import { PasscodeConfirmSheet, Stepper } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { EmptyState, ErrorState, Segmented, SkeletonRows } from '../markets/market-ui.tsx';
import { useStockBalances } from '../stocks/trading-api.ts';
import { SignInPrompt } from '../stocks/trading-ui.tsx';
import { ipoCalls, useIpo, useIpoRefresh } from './ipo-api.ts';
import {
  type BidDraft,
  type BidError,
  bidAmount,
  bidPrice,
  draftAmount,
  heldForBids,
  isAboveRetail,
  parseLots,
  validateOfflineBid,
  validateRetailBid,
} from './ipo-math.ts';
import { Facts, HonestNotices, IpoStatusChip, idParam, ipoPaths, useIpoFormat } from './ipo-ui.tsx';

const MAX_BIDS = 3;

type Channel = 'online' | 'offline';

interface Confirm {
  key: string;
  rows: [string, ReactNode][];
  body: ApplyIpoInput | ApplyOfflineIpoInput;
  channel: Channel;
}

function useErrorText(ipo: IpoView) {
  const { t } = useTranslation();
  const f = useIpoFormat(ipo.currency);
  return (error: BidError | 'offline_below_retail' | null) =>
    error
      ? t(`ipo.errors.${error}`, {
          min: ipo.minLots,
          low: f.money(ipo.priceLow),
          high: f.money(ipo.priceHigh),
          amount: f.money(ipo.retailMaxAmount),
        })
      : undefined;
}

function BidFields({
  ipo,
  bid,
  index,
  error,
  onChange,
  onRemove,
}: {
  ipo: IpoView;
  bid: BidDraft;
  index: number;
  error: string | undefined;
  onChange: (bid: BidDraft) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const f = useIpoFormat(ipo.currency);
  const n = index + 1;
  const lots = parseLots(bid.lots);
  const amount = draftAmount(bid, ipo);
  return (
    <section className="ipo-bid" aria-labelledby={`bid${n}-title`} data-testid={`bid-${n}`}>
      <h3 className="ipo-bid__title" id={`bid${n}-title`}>
        {t('ipo.bidN', { n })}
        {onRemove && (
          <button type="button" className="text-button" onClick={onRemove} aria-label={t('ipo.removeBid', { n })}>
            ×
          </button>
        )}
      </h3>
      <Stepper
        id={`bid${n}-lots`}
        label={`${t('ipo.lots')} · ${t('ipo.lotsHint', { shares: f.shares((lots ?? 0) * ipo.lotSize) })}`}
        value={bid.lots}
        onChange={(value) => onChange({ ...bid, lots: value })}
        step="1"
        maxDecimals={0}
      />
      <label className="ipo-cutoff">
        <input
          type="checkbox"
          checked={bid.cutOff}
          onChange={(event) => onChange({ ...bid, cutOff: event.target.checked, price: bid.price || ipo.priceHigh })}
          data-testid={`bid${n}-cutoff`}
        />
        <span>
          {t('ipo.cutOff')}
          <small>{t('ipo.cutOffHint')}</small>
        </span>
      </label>
      {!bid.cutOff && (
        <Stepper
          id={`bid${n}-price`}
          label={t('ipo.bidPriceLabel', { currency: ipo.currency })}
          value={bid.price}
          onChange={(value) => onChange({ ...bid, price: value })}
          step="0.05"
          maxDecimals={2}
        />
      )}
      <p className="ipo-bid__amount tabular">
        <span>{t('ipo.bidAmount')}</span>
        <b data-testid={`bid${n}-amount`}>{amount ? f.money(amount) : '--'}</b>
      </p>
      {error && (
        <p className="stepper-field__error" role="alert" data-testid={`bid${n}-error`}>
          {error}
        </p>
      )}
    </section>
  );
}

function RetailForm({
  ipo,
  onConfirm,
  onOffline,
}: {
  ipo: IpoView;
  onConfirm: (c: Confirm) => void;
  onOffline: () => void;
}) {
  const { t } = useTranslation();
  const f = useIpoFormat(ipo.currency);
  const errorText = useErrorText(ipo);
  const [bids, setBids] = useState<BidDraft[]>([{ lots: String(ipo.minLots), price: '', cutOff: true }]);
  const balances = useStockBalances(true);
  const available = balances.data?.find((b) => b.asset === ipo.currency)?.available;
  const errors = bids.map((bid) => validateRetailBid(bid, ipo));
  const amounts = bids.map((bid, i) => (errors[i] ? null : draftAmount(bid, ipo)));
  const held = heldForBids(amounts);
  const isValid = errors.every((error) => error === null);
  const isAboveBalance = available !== undefined && compareDecimal(held, available) > 0;
  const isTooLarge = errors.includes('amount_above_retail');
  const update = (index: number, bid: BidDraft) => setBids(bids.map((b, i) => (i === index ? bid : b)));

  const review = () => {
    const body: ApplyIpoInput = { ipoId: ipo.id, bid1Lots: 0, bid1Price: '' };
    const rows: [string, ReactNode][] = [
      [t('ipo.confirm.ipo'), `${ipo.symbol} · ${ipo.name}`],
      [t('ipo.confirm.channel'), t('ipo.channel.online')],
    ];
    bids.forEach((bid, i) => {
      const lots = parseLots(bid.lots) ?? 0;
      const n = i + 1;
      Object.assign(body, { [`bid${n}Lots`]: lots, [`bid${n}Price`]: bid.cutOff ? 'cutoff' : bid.price.trim() });
      rows.push([
        t('ipo.confirm.bid', { n }),
        t(bid.cutOff ? 'ipo.confirm.bidCutOff' : 'ipo.confirm.bidValue', {
          lots,
          shares: ipo.lotSize,
          price: f.money(bidPrice(bid, ipo)),
        }),
      ]);
    });
    rows.push([t('ipo.confirm.held'), <b key="held">{f.money(held)}</b>]);
    onConfirm({ key: newIdempotencyKey(), rows, body, channel: 'online' });
  };

  return (
    <>
      {bids.map((bid, i) => (
        <BidFields
          key={i}
          ipo={ipo}
          bid={bid}
          index={i}
          error={errorText(errors[i] ?? null)}
          onChange={(next) => update(i, next)}
          onRemove={i > 0 ? () => setBids(bids.filter((_, j) => j !== i)) : undefined}
        />
      ))}
      {bids.length < MAX_BIDS && (
        <button
          type="button"
          className="btn btn--outline btn--block"
          data-testid="add-bid"
          onClick={() => setBids([...bids, { lots: String(ipo.minLots), price: ipo.priceHigh, cutOff: false }])}
        >
          {t('ipo.addBid')}
        </button>
      )}
      {isTooLarge && (
        <div className="ipo-notices ipo-notices--warn" data-testid="retail-limit">
          <p>{t('ipo.retailLimit', { amount: f.money(ipo.retailMaxAmount) })}</p>
          <button type="button" className="btn btn--outline" onClick={onOffline} data-testid="use-offline">
            {t('ipo.useOffline')}
          </button>
        </div>
      )}
      <dl className="order-figures">
        <div>
          <dt>{t('ipo.available')}</dt>
          <dd className="tabular" data-testid="available">
            {available !== undefined ? f.money(available) : '--'}
          </dd>
        </div>
        <div className="order-figures__total">
          <dt>
            {t('ipo.willHold')}
            <small className="ipo-figure-hint">{t('ipo.willHoldHint')}</small>
          </dt>
          <dd className="tabular" data-testid="will-hold">
            {f.money(held)}
          </dd>
        </div>
      </dl>
      {isAboveBalance && (
        <p className="stepper-field__error" role="alert">
          {t('ipo.insufficient')}
        </p>
      )}
      <HonestNotices />
      <div className="order-submit">
        <button
          type="button"
          className="btn btn--primary btn--block"
          disabled={!isValid}
          onClick={review}
          data-testid="ipo-review"
        >
          {t('ipo.review')}
        </button>
      </div>
    </>
  );
}

function OfflineForm({
  ipo,
  onConfirm,
  onOnline,
}: {
  ipo: IpoView;
  onConfirm: (c: Confirm) => void;
  onOnline: () => void;
}) {
  const { t } = useTranslation();
  const f = useIpoFormat(ipo.currency);
  const errorText = useErrorText(ipo);
  const [lots, setLots] = useState('');
  const [price, setPrice] = useState(ipo.priceHigh);
  const lotCount = parseLots(lots);
  const amount = lotCount ? bidAmount(price.trim(), lotCount, ipo.lotSize) : null;
  const fieldError = validateOfflineBid(lots, price, ipo);
  const error = fieldError ?? (isAboveRetail(amount, ipo) ? null : 'offline_below_retail');
  const review = () => {
    if (!lotCount) return;
    onConfirm({
      key: newIdempotencyKey(),
      channel: 'offline',
      body: { ipoId: ipo.id, lots: lotCount, price: price.trim() },
      rows: [
        [t('ipo.confirm.ipo'), `${ipo.symbol} · ${ipo.name}`],
        [t('ipo.confirm.channel'), t('ipo.channel.offline')],
        [
          t('ipo.confirm.bid', { n: 1 }),
          t('ipo.confirm.bidValue', { lots: lotCount, shares: ipo.lotSize, price: f.money(price.trim()) }),
        ],
        [t('ipo.amountToPay'), f.money(amount)],
        [t('ipo.confirm.held'), t('ipo.offlineNothingHeld')],
      ],
    });
  };
  return (
    <>
      <div className="ipo-notices" data-testid="offline-hint">
        <p>{t('ipo.offlineHint', { amount: f.money(ipo.retailMaxAmount), hours: ipo.paymentWindowHours })}</p>
        <button type="button" className="text-button" onClick={onOnline}>
          {t('ipo.useOnline')}
        </button>
      </div>
      <section className="ipo-bid" data-testid="offline-bid">
        <Stepper
          id="offline-lots"
          label={`${t('ipo.lots')} · ${t('ipo.lotsHint', { shares: f.shares((lotCount ?? 0) * ipo.lotSize) })}`}
          value={lots}
          onChange={setLots}
          step="1"
          maxDecimals={0}
        />
        <Stepper
          id="offline-price"
          label={t('ipo.bidPriceLabel', { currency: ipo.currency })}
          value={price}
          onChange={setPrice}
          step="0.05"
          maxDecimals={2}
        />
        <p className="ipo-bid__amount tabular">
          <span>{t('ipo.amountToPay')}</span>
          <b data-testid="offline-amount">{amount ? f.money(amount) : '--'}</b>
        </p>
        {lots !== '' && error && (
          <p className="stepper-field__error" role="alert" data-testid="offline-error">
            {errorText(error)}
          </p>
        )}
      </section>
      <p className="ipo-foot">{t('ipo.lotteryNotice')}</p>
      <div className="order-submit">
        <button
          type="button"
          className="btn btn--primary btn--block"
          disabled={error !== null}
          onClick={review}
          data-testid="ipo-review"
        >
          {t('ipo.review')}
        </button>
      </div>
    </>
  );
}

function ApplyForm({ ipo }: { ipo: IpoView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useIpoRefresh();
  const f = useIpoFormat(ipo.currency);
  const [params, setParams] = useSearchParams();
  const channel: Channel = params.get('channel') === 'offline' ? 'offline' : 'online';
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const setChannel = (next: Channel) => {
    const copy = new URLSearchParams(params);
    copy.set('channel', next);
    setParams(copy, { replace: true });
  };
  return (
    <div className="ipo-form ipo-page--with-bar" data-testid="ipo-form">
      <section className="ipo-hero">
        <div className="ipo-card__head">
          <span className="ipo-card__names">
            <span className="ipo-card__symbol">{ipo.symbol}</span>
            <span className="ipo-card__name">{ipo.name}</span>
          </span>
          <IpoStatusChip status={ipo.status} />
        </div>
        <Facts
          rows={[
            [t('ipo.band'), t('ipo.bandValue', { low: f.money(ipo.priceLow), high: f.money(ipo.priceHigh) })],
            [t('ipo.lot'), t('ipo.lotShares', { count: ipo.lotSize })],
            [t('ipo.closes'), f.dateTime(ipo.closesAt)],
          ]}
        />
      </section>
      <Segmented
        value={channel}
        onChange={setChannel}
        label={t('ipo.form')}
        testId="channel-switch"
        options={(['online', 'offline'] as const).map((value) => ({ value, label: t(`ipo.channel.${value}`) }))}
      />
      {channel === 'online' ? (
        <RetailForm ipo={ipo} onConfirm={setConfirm} onOffline={() => setChannel('offline')} />
      ) : (
        <OfflineForm ipo={ipo} onConfirm={setConfirm} onOnline={() => setChannel('online')} />
      )}
      <PasscodeConfirmSheet
        isOpen={confirm !== null}
        orderKey={confirm?.key ?? ''}
        rows={confirm?.rows ?? []}
        notice={
          <p className="confirm__notice">
            {t(confirm?.channel === 'offline' ? 'ipo.confirm.noticeOffline' : 'ipo.confirm.notice')}
          </p>
        }
        submit={(password, key) => {
          if (!confirm) throw new Error('no application');
          return apiPost<IpoApplicationResult>(
            confirm.channel === 'online' ? ipoCalls.apply : ipoCalls.applyOffline,
            { ...confirm.body, password },
            { isSilent: true, idempotencyKey: key },
          );
        }}
        onDone={() => {
          const sent = confirm?.channel ?? 'online';
          setConfirm(null);
          Toast.show({ content: t('ipo.sent') });
          refresh();
          navigate(`${ipoPaths.applications}?channel=${sent}`);
        }}
        onClose={() => setConfirm(null)}
      />
    </div>
  );
}

export function IpoOrderPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const session = useSession();
  const id = idParam(params);
  const ipo = useIpo(id);
  const body = !session.token ? (
    <SignInPrompt messageKey="ipo.signInToApply" />
  ) : id === 0 ? (
    <EmptyState title={t('ipo.notFound')} />
  ) : ipo.isPending ? (
    <SkeletonRows count={4} height={96} />
  ) : ipo.isError ? (
    <ErrorState onRetry={() => void ipo.refetch()} />
  ) : ipo.data.status !== 'open' ? (
    <EmptyState
      title={t('ipo.notOpen')}
      action={
        <Link className="btn btn--primary" to={ipoPaths.detail(id)}>
          {t('ipo.viewDetail')}
        </Link>
      }
    />
  ) : (
    <ApplyForm ipo={ipo.data} />
  );
  return (
    <Page title={ipo.data ? t('ipo.applyFor', { symbol: ipo.data.symbol }) : t('titles.stockIPO.ipoOrder')}>
      {body}
    </Page>
  );
}
