// The crypto trading screen (SPEC §2 pages/coin/index?symbol=BTCUSDT&side=buy, and the Trade tab's crypto
// side): the pair selector, quote header, order book with depth bars (a tapped price fills the form),
// recent trades and the K-line, the order form (limit, market, stop-limit; GTC/IOC/FOK and post-only),
// the server's fee preview, a confirmation sheet with the transaction password, then the customer's
// open orders (cancel, amend down), order history and trade history. The platform is the exchange: the
// screen shows what the server answers (fills, fees) and computes nothing but the form's estimates.

import type {
  PlaceSpotOrderInput,
  PreviewSpotOrderInput,
  QuoteView,
  SpotOrderResult,
  SpotOrderStatus,
  SpotTimeInForce,
} from '@bourse/contract';
import { compareDecimal, decimalPlaces } from '@bourse/money';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog, Popup, Slider, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { apiPost as apiPostLoud } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { useSession } from '../../app/session.ts';
import { PasscodeConfirmSheet, Stepper, useDebounced } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { useEscape } from '../../app/shell/use-escape.ts';
import { readStorage, writeStorage } from '../../app/storage-keys.ts';
import { useDeploymentTimeZone } from '../../app/use-deployment-time-zone.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { formatNumber } from '../../lib/format.ts';
import { formatPercentChange, formatPrice } from '../../lib/market-format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { Kline, OrderBook, QuoteHeader, RecentTrades } from '../markets/kline-page.tsx';
import { useBook, useCoinTickers, useQuote } from '../markets/market-api.ts';
import { bookRows, directionOf, priceDigits } from '../markets/market-math.ts';
import { EmptyState, ErrorState, Segmented, SkeletonRows } from '../markets/market-ui.tsx';
import { SignInPrompt } from '../stocks/trading-ui.tsx';
import { CoinStar } from './coin-star.tsx';
import {
  amendSpotOrder,
  cancelSpotOrder,
  defaultPairSymbol,
  pairSymbolOf,
  refreshSpot,
  type SpotOrderPreviewView,
  type SpotOrderView,
  type SpotPairView,
  spotKeys,
  trimZeros,
  usePairs,
  useSpotAccountLive,
  useSpotOrders,
  useSpotTrades,
  useSpotWallet,
} from './spot-api.ts';
import {
  bpsAsPercent,
  estimateSpotAmount,
  exactDigits,
  type SpotFormErrors,
  type SpotFormType,
  type SpotSide,
  spotQuantityForPercent,
  validateSpotOrder,
} from './spot-math.ts';
import './spot.css';

const lastPairKey = 'spotPair';
const openStatuses: readonly SpotOrderStatus[] = ['untriggered', 'pending', 'partial'];
/** Decimals worth showing (trailing zeros dropped), between 2 and 8. */

const isOpen = (order: SpotOrderView) =>
  openStatuses.includes(order.status) && compareDecimal(order.filledQuantity, order.quantity) < 0;

function readLastPair(): string {
  return readStorage(lastPairKey) ?? defaultPairSymbol;
}

function storeLastPair(symbol: string): void {
  writeStorage(lastPairKey, symbol);
}

const pairLabel = (pair: Pick<SpotPairView, 'base' | 'quote'>) => `${pair.base}/${pair.quote}`;

function PairSheet({
  isOpen: isShown,
  current,
  onPick,
  onClose,
}: {
  isOpen: boolean;
  current: string;
  onPick: (symbol: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const tickers = useCoinTickers(isShown);
  const [filter, setFilter] = useState('');
  useEscape(isShown, onClose);
  const language = currentLanguage();
  const items = (tickers.data?.items ?? []).filter((q) =>
    `${q.symbol} ${q.name}`.toUpperCase().includes(filter.trim().toUpperCase()),
  );
  return (
    <Popup visible={isShown} onMaskClick={onClose} onClose={onClose} bodyClassName="sheet">
      <div role="dialog" aria-modal="true" aria-label={t('spot.choosePair')} data-testid="pair-sheet">
        <div className="sheet__head">
          <h2 className="sheet__title">{t('spot.choosePair')}</h2>
          <button type="button" className="text-button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <div className="sheet__body pair-sheet">
          <input
            className="pair-sheet__search"
            type="search"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            placeholder={t('spot.searchPair')}
            aria-label={t('spot.searchPair')}
          />
          {tickers.isPending ? (
            <SkeletonRows count={6} height={48} />
          ) : tickers.isError ? (
            <ErrorState onRetry={() => void tickers.refetch()} />
          ) : items.length === 0 ? (
            <EmptyState title={t('spot.noPairs')} />
          ) : (
            <ul className="pair-sheet__list">
              {items.map((quote) => {
                const digits = priceDigits(quote.tickSize);
                return (
                  <li key={quote.id}>
                    <button
                      type="button"
                      className={pairSymbolOf(quote.symbol) === current ? 'pair-row pair-row--current' : 'pair-row'}
                      onClick={() => onPick(pairSymbolOf(quote.symbol))}
                      data-testid="pair-row"
                    >
                      <span className="pair-row__names">
                        <b>{quote.symbol}</b>
                        <span>{quote.name}</span>
                      </span>
                      <span className="pair-row__price tabular">{formatPrice(quote.price, language, digits)}</span>
                      <span className={`pair-row__change tabular num--${directionOf(quote.change)}`}>
                        {formatPercentChange(quote.changePct, language)}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </div>
    </Popup>
  );
}

interface ConfirmState {
  orderKey: string;
  body: Omit<PlaceSpotOrderInput, 'password' | 'clientOrderId'>;
}

function OrderForm({
  pair,
  quote,
  picked,
  onPlaced,
}: {
  pair: SpotPairView;
  quote: QuoteView;
  picked: { price: string; at: number } | null;
  onPlaced: (order: SpotOrderView) => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const language = currentLanguage();
  const side: SpotSide = params.get('side') === 'sell' ? 'sell' : 'buy';
  const [type, setType] = useState<SpotFormType>('limit');
  const [timeInForce, setTimeInForce] = useState<SpotTimeInForce>('gtc');
  const [postOnly, setPostOnly] = useState(false);
  const [price, setPrice] = useState('');
  const [stopPrice, setStopPrice] = useState('');
  const [quantity, setQuantity] = useState('');
  const [percent, setPercent] = useState(0);
  const [isTouched, setTouched] = useState(false);
  const [isAdvanced, setAdvanced] = useState(false);
  const [confirm, setConfirm] = useState<ConfirmState | null>(null);
  const priceRef = useRef<HTMLDivElement>(null);
  const wallet = useSpotWallet(Boolean(session.token));
  const book = useBook('coin', quote.symbol, quote.id);
  const digits = priceDigits(pair.tickSize);
  const lotDigits = decimalPlaces(pair.lotSize);
  const spendAsset = side === 'buy' ? pair.quote : pair.base;
  const available = wallet.data?.find((b) => b.asset === spendAsset)?.available ?? (wallet.data ? '0' : undefined);

  // A limit order starts from the last price.
  useEffect(() => {
    if (type !== 'market' && price === '') setPrice(quote.price);
  }, [type, price, quote.price]);

  // A price tapped in the book goes into the price box (a market order becomes a limit order).
  useEffect(() => {
    if (!picked) return;
    setType((current) => (current === 'market' ? 'limit' : current));
    setPrice(picked.price);
    priceRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [picked]);

  const setSide = (next: SpotSide) => {
    const copy = new URLSearchParams(params);
    copy.set('side', next);
    setParams(copy, { replace: true });
    setPercent(0);
  };

  const rows = book.data ? bookRows(book.data, 1) : null;
  // A market order's estimated price: the best price on the other side, else the last price.
  const marketPrice = (side === 'buy' ? rows?.asks[0]?.price : rows?.bids[0]?.price) ?? quote.price;
  const effectivePrice = type === 'market' ? marketPrice : price;
  const errors: SpotFormErrors = validateSpotOrder({
    side,
    type,
    price,
    stopPrice,
    quantity,
    tickSize: pair.tickSize,
    lotSize: pair.lotSize,
    minQuantity: pair.minQuantity,
    maxQuantity: pair.maxQuantity,
    minNotional: pair.minNotional,
    marketPrice,
    available: side === 'sell' ? available : undefined,
  });
  const isValid = !errors.price && !errors.quantity && !errors.stopPrice;
  const body: ConfirmState['body'] = {
    symbol: pair.symbol,
    side,
    type,
    price: type === 'market' ? undefined : price,
    stopPrice: type === 'stop_limit' ? stopPrice : undefined,
    quantity,
    timeInForce: type === 'limit' ? timeInForce : 'gtc',
    postOnly: type === 'limit' && timeInForce === 'gtc' ? postOnly : false,
  };
  // Debounced as text: the screen re-renders with every book and ticker update, each time with a new object.
  const previewText = useDebounced(
    isValid && session.token ? JSON.stringify(body satisfies PreviewSpotOrderInput) : null,
    400,
  );
  const previewInput = previewText === null ? null : (JSON.parse(previewText) as PreviewSpotOrderInput);
  const preview = useQuery({
    queryKey: spotKeys.preview(previewText),
    queryFn: () => apiPostLoud<SpotOrderPreviewView>('/coin/order/preview', previewInput ?? {}, { isBackground: true }),
    enabled: previewInput !== null,
    retry: false,
    staleTime: 5_000,
  });
  // Amounts in the quote coin with 2 decimals, prices at the tick's, quantities at the lot's, fees exact.
  const quoteAmount = (v: string | null | undefined, asset = pair.quote) =>
    v ? `${formatNumber(v, { locale: language, digits: asset === pair.quote ? 2 : lotDigits })} ${asset}` : '--';
  const priceText = (v: string | null | undefined) =>
    v ? `${formatNumber(v, { locale: language, digits })} ${pair.quote}` : '--';
  const feeText = (view: SpotOrderPreviewView | undefined) =>
    view ? `${formatNumber(view.fee, { locale: language, digits: exactDigits(view.fee) })} ${view.feeAsset}` : '--';
  const estimated = estimateSpotAmount(effectivePrice, quantity, 2);
  const isInsufficient =
    side === 'buy' && preview.data !== undefined && compareDecimal(preview.data.total, preview.data.available) > 0;
  const errorText = (key: string | undefined) =>
    key && (isTouched || key !== 'quantity_required')
      ? t(`spot.errors.${key}`, {
          minNotional: `${pair.minNotional} ${pair.quote}`,
          minQuantity: `${pair.minQuantity} ${pair.base}`,
          maxQuantity: `${pair.maxQuantity} ${pair.base}`,
          lot: pair.lotSize,
          tick: pair.tickSize,
        })
      : undefined;

  const onPercent = (value: number) => {
    setPercent(value);
    setQuantity(
      spotQuantityForPercent({
        side,
        pct: value,
        available,
        price: effectivePrice,
        lotSize: pair.lotSize,
        takerFeeBps: pair.takerFeeBps,
      }),
    );
  };

  const openConfirm = () => {
    setTouched(true);
    if (!isValid || !pair.trading) return;
    setConfirm({ orderKey: newIdempotencyKey(), body });
  };

  const onDone = (order: SpotOrderView) => {
    setConfirm(null);
    setQuantity('');
    setPercent(0);
    setTouched(false);
    Toast.show({ icon: 'success', content: t(`spot.placed.${isOpen(order) ? 'open' : order.status}`) });
    refreshSpot(queryClient);
    onPlaced(order);
  };

  if (!session.token) {
    return (
      <section className="spot-form" aria-label={t('spot.orderForm')}>
        <SignInPrompt messageKey="spot.signInToTrade" />
      </section>
    );
  }

  const feeRates = t('spot.feeRates', {
    maker: formatNumber(bpsAsPercent(pair.makerFeeBps), { locale: language, digits: 2 }),
    taker: formatNumber(bpsAsPercent(pair.takerFeeBps), { locale: language, digits: 2 }),
  });
  const preview_ = preview.data;
  const confirmRows: [string, ReactNode][] = confirm
    ? [
        [t('spot.pair'), pairLabel(pair)],
        [t('trading.side'), t(`trading.${confirm.body.side}`)],
        [t('spot.orderType'), orderTypeText(t, confirm.body)],
        ...(confirm.body.stopPrice
          ? [[t('spot.stopPrice'), priceText(confirm.body.stopPrice)] as [string, ReactNode]]
          : []),
        [
          t('trading.price'),
          confirm.body.type === 'market'
            ? `${t('spot.types.market')} (≈ ${priceText(preview_?.price ?? marketPrice)})`
            : priceText(confirm.body.price),
        ],
        [t('trading.quantity'), quoteAmount(confirm.body.quantity, pair.base)],
        [t('trading.amount'), quoteAmount(preview_?.amount ?? estimated)],
        [t('trading.fee'), feeText(preview_)],
        [t(side === 'buy' ? 'trading.totalCost' : 'trading.totalProceeds'), quoteAmount(preview_?.total)],
      ]
    : [];

  return (
    <section className={`spot-form spot-form--${side}`} aria-label={t('spot.orderForm')} data-testid="spot-form">
      <div className="side-switch" role="tablist" aria-label={t('trading.side')}>
        {(['buy', 'sell'] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={side === value}
            className={side === value ? `side-switch__btn side-switch__btn--${value}` : 'side-switch__btn'}
            onClick={() => setSide(value)}
            data-testid={`side-${value}`}
          >
            {t(`spot.${value}Coin`, { coin: pair.base })}
          </button>
        ))}
      </div>

      <div className="order-type" title={t('spot.orderType')}>
        {(['limit', 'market', 'stop_limit'] as const).map((value) => (
          <button
            key={value}
            type="button"
            aria-pressed={type === value}
            className={type === value ? 'order-type__btn order-type__btn--active' : 'order-type__btn'}
            onClick={() => setType(value)}
            data-testid={`type-${value}`}
          >
            {t(`spot.types.${value}`)}
          </button>
        ))}
      </div>

      {!pair.trading && <p className="order-note order-note--warn">{t('spot.notTrading')}</p>}

      {type === 'stop_limit' && (
        <Stepper
          id="stop-price"
          label={t('spot.stopPriceIn', { quote: pair.quote })}
          value={stopPrice}
          onChange={setStopPrice}
          step={pair.tickSize}
          maxDecimals={digits}
          error={errorText(errors.stopPrice)}
        />
      )}
      {type === 'market' ? (
        <p className="order-market-price">{t('spot.marketHint', { price: priceText(marketPrice) })}</p>
      ) : (
        <div ref={priceRef}>
          <Stepper
            id="price"
            label={t('spot.priceIn', { quote: pair.quote })}
            value={price}
            onChange={setPrice}
            step={pair.tickSize}
            maxDecimals={digits}
            error={errorText(errors.price)}
          />
        </div>
      )}
      <Stepper
        id="quantity"
        label={t('spot.quantityIn', { base: pair.base })}
        value={quantity}
        onChange={(value) => {
          setQuantity(value);
          setPercent(0);
        }}
        step={pair.lotSize}
        maxDecimals={lotDigits}
        placeholder={t('spot.quantityPlaceholder', {
          lot: formatNumber(pair.lotSize, { locale: language, digits: lotDigits }),
        })}
        error={errorText(errors.quantity)}
      />

      <div className="percent-slider">
        <Slider
          value={percent}
          onChange={(value) => onPercent(Array.isArray(value) ? (value[0] ?? 0) : value)}
          step={25}
          ticks
          marks={{ 0: '0%', 25: '25%', 50: '50%', 75: '75%', 100: '100%' }}
          aria-label={t('trading.percentOfAvailable')}
        />
      </div>

      {type === 'limit' && (
        <div className="spot-advanced">
          <button
            type="button"
            className="text-button spot-advanced__toggle"
            aria-expanded={isAdvanced}
            onClick={() => setAdvanced(!isAdvanced)}
          >
            {t('spot.advanced')} {isAdvanced ? '▴' : '▾'}
          </button>
          {isAdvanced && (
            <div className="spot-advanced__body">
              <div className="spot-tif" title={t('spot.timeInForce')}>
                {(['gtc', 'ioc', 'fok'] as const).map((value) => (
                  <button
                    key={value}
                    type="button"
                    aria-pressed={timeInForce === value}
                    className={timeInForce === value ? 'spot-tif__btn spot-tif__btn--active' : 'spot-tif__btn'}
                    onClick={() => {
                      setTimeInForce(value);
                      if (value !== 'gtc') setPostOnly(false);
                    }}
                    title={t(`spot.tifHint.${value}`)}
                  >
                    {t(`spot.tif.${value}`)}
                  </button>
                ))}
              </div>
              <label className="spot-check">
                <input
                  type="checkbox"
                  checked={postOnly}
                  disabled={timeInForce !== 'gtc'}
                  onChange={(event) => setPostOnly(event.target.checked)}
                  data-testid="post-only"
                />
                <span>{t('spot.postOnly')}</span>
              </label>
              <p className="spot-advanced__hint">{t(postOnly ? 'spot.postOnlyHint' : `spot.tifHint.${timeInForce}`)}</p>
            </div>
          )}
        </div>
      )}

      <dl className="order-figures">
        <div>
          <dt>{t('spot.available')}</dt>
          <dd className="tabular" data-testid="available">
            {wallet.isPending ? '…' : quoteAmount(available ?? '0', spendAsset)}
          </dd>
        </div>
        <div>
          <dt>{t('trading.amount')}</dt>
          <dd className="tabular">{quoteAmount(preview_?.amount ?? estimated)}</dd>
        </div>
        <div>
          <dt>{t('trading.fee')}</dt>
          <dd className="tabular" data-testid="preview-fee">
            {preview.isFetching && !preview_ ? '…' : feeText(preview_)}
          </dd>
        </div>
        <div className="spot-fee-rates">
          <dt>{t('spot.feeRateLabel')}</dt>
          <dd className="tabular">{feeRates}</dd>
        </div>
        <div className="order-figures__total">
          <dt>{side === 'buy' ? t('trading.totalCost') : t('trading.totalProceeds')}</dt>
          <dd className="tabular" data-testid="preview-total">
            {quoteAmount(preview_?.total)}
          </dd>
        </div>
      </dl>
      {preview.isError && (
        <p className="form-banner" role="alert" data-testid="preview-error">
          {preview.error.message}
        </p>
      )}
      {isInsufficient && (
        <p className="form-banner" role="alert">
          {t('spot.insufficientHint', { asset: pair.quote })}
        </p>
      )}
      <button
        type="button"
        className={`btn btn--block order-submit__btn order-submit__btn--${side}`}
        disabled={!pair.trading || confirm !== null}
        onClick={openConfirm}
        data-testid="order-submit"
      >
        {t(side === 'buy' ? 'spot.buyCoin' : 'spot.sellCoin', { coin: pair.base })}
      </button>
      <PasscodeConfirmSheet
        isOpen={confirm !== null}
        orderKey={confirm?.orderKey ?? ''}
        rows={confirmRows}
        notice={<p className="confirm__notice">{feeRates}</p>}
        submit={(password, clientOrderId) => {
          if (!confirm) throw new Error('no order');
          return apiPostLoud<SpotOrderResult>(
            '/coin/order/add',
            { ...confirm.body, password, clientOrderId } satisfies PlaceSpotOrderInput,
            { isSilent: true, idempotencyKey: clientOrderId },
          );
        }}
        onDone={(result) => onDone(result.order)}
        onClose={() => setConfirm(null)}
      />
    </section>
  );
}

function orderTypeText(
  t: (key: string) => string,
  order: Pick<SpotOrderView, 'type' | 'timeInForce' | 'postOnly'> | ConfirmState['body'],
): string {
  const type = order.type ?? 'limit';
  const parts = [t(`spot.types.${type}`)];
  if (type === 'limit' && order.timeInForce && order.timeInForce !== 'gtc')
    parts.push(t(`spot.tif.${order.timeInForce}`));
  if (order.postOnly) parts.push(t('spot.postOnly'));
  return parts.join(' · ');
}

function AmendSheet({
  order,
  lotSize,
  onClose,
}: {
  order: SpotOrderView | null;
  lotSize: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const [quantity, setQuantity] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEscape(order !== null, onClose);
  useEffect(() => {
    setQuantity('');
    setError(null);
  }, [order]);
  const amend = useMutation({
    mutationFn: () => amendSpotOrder(order?.id ?? 0, quantity),
    onSuccess: () => {
      Toast.show({ content: t('spot.amended') });
      refreshSpot(queryClient);
      onClose();
    },
    onError: (cause) => setError(cause instanceof Error ? cause.message : String(cause)),
  });
  if (!order) return null;
  const lotDigits = decimalPlaces(lotSize);
  const tooHigh = quantity !== '' && compareDecimal(quantity, order.quantity) >= 0;
  const tooLow = quantity !== '' && compareDecimal(quantity, order.filledQuantity) <= 0;
  const fieldError = tooHigh ? t('spot.amendTooHigh') : tooLow ? t('spot.amendTooLow') : undefined;
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyClassName="sheet">
      <div role="dialog" aria-modal="true" aria-label={t('spot.amendTitle')} data-testid="amend-sheet">
        <div className="sheet__head">
          <h2 className="sheet__title">{t('spot.amendTitle')}</h2>
          <button type="button" className="text-button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <div className="sheet__body spot-amend">
          <p className="section-hint">
            {t('spot.amendHint', {
              quantity: formatNumber(order.quantity, { locale: language, digits: exactDigits(order.quantity) }),
              filled: formatNumber(order.filledQuantity, {
                locale: language,
                digits: exactDigits(order.filledQuantity),
              }),
              coin: order.base,
            })}
          </p>
          <Stepper
            id="amend-quantity"
            label={t('spot.newQuantity', { base: order.base })}
            value={quantity}
            onChange={setQuantity}
            step={lotSize}
            maxDecimals={lotDigits}
            placeholder={order.quantity}
            error={fieldError}
          />
          {error && (
            <p className="form-banner" role="alert">
              {error}
            </p>
          )}
          <button
            type="button"
            className="btn btn--primary btn--block"
            disabled={!quantity || Boolean(fieldError) || amend.isPending}
            onClick={() => amend.mutate()}
            data-testid="amend-submit"
          >
            {amend.isPending ? t('common.loading') : t('spot.amendSubmit')}
          </button>
        </div>
      </div>
    </Popup>
  );
}

function SpotStatusChip({ status }: { status: SpotOrderStatus }) {
  const { t } = useTranslation();
  return <span className={`status-chip status-chip--${status}`}>{t(`spot.status.${status}`)}</span>;
}

function SpotOrderRow({ order, actions }: { order: SpotOrderView; actions?: ReactNode }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const timeZone = useDeploymentTimeZone();
  const num = (v: string | null) => (v ? formatNumber(v, { locale: language, digits: exactDigits(v) }) : '--');
  return (
    <li className="spot-order" data-testid="spot-order">
      <div className="spot-order__top">
        <span className={`side-tag side-tag--${order.side}`}>{t(`trading.${order.side}`)}</span>
        <b>
          {order.base}/{order.quote}
        </b>
        <span className="spot-order__type">{orderTypeText(t, order)}</span>
        <SpotStatusChip status={order.status} />
      </div>
      <dl className="spot-order__grid tabular">
        <div>
          <dt>{t('trading.price')}</dt>
          <dd>{order.type === 'market' ? t('spot.types.market') : num(order.price)}</dd>
        </div>
        <div>
          <dt>{t('spot.filledOf')}</dt>
          <dd>
            {num(order.filledQuantity)}/{num(order.quantity)}
          </dd>
        </div>
        {order.stopPrice && (
          <div>
            <dt>{t('spot.stopPrice')}</dt>
            <dd>{num(order.stopPrice)}</dd>
          </div>
        )}
        <div>
          <dt>{t('spot.avgPrice')}</dt>
          <dd>{num(order.avgPrice)}</dd>
        </div>
        <div>
          <dt>{t('trading.fee')}</dt>
          <dd>{compareDecimal(order.fee, '0') > 0 ? `${num(order.fee)} ${order.feeAsset}` : '--'}</dd>
        </div>
      </dl>
      <div className="spot-order__foot">
        <span className="spot-order__time">{formatDateTime(order.createdAt, timeZone)}</span>
        {actions}
      </div>
    </li>
  );
}

/** `symbol` '' lists every pair's orders; only the current pair's can be amended here (its lot size is known). */
function OpenOrders({ pair, symbol }: { pair: SpotPairView; symbol: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const orders = useSpotOrders('open', symbol, true);
  const [amending, setAmending] = useState<SpotOrderView | null>(null);
  const cancel = useMutation({
    mutationFn: (order: SpotOrderView) => cancelSpotOrder(order.id),
    onSuccess: () => {
      Toast.show({ content: t('spot.cancelled') });
      refreshSpot(queryClient);
    },
  });
  if (orders.isPending) return <SkeletonRows count={2} height={88} />;
  if (orders.isError) return <ErrorState onRetry={() => void orders.refetch()} />;
  const items = orders.data.items.filter(isOpen);
  if (items.length === 0) return <EmptyState title={t('spot.noOpenOrders')} hint={t('spot.noOpenOrdersHint')} />;
  return (
    <>
      <ul className="spot-orders" data-testid="open-orders">
        {items.map((order) => (
          <SpotOrderRow
            key={order.id}
            order={order}
            actions={
              <span className="spot-order__actions">
                {order.status !== 'untriggered' && order.base === pair.base && order.quote === pair.quote && (
                  <button
                    type="button"
                    className="btn btn--outline spot-order__btn"
                    onClick={() => setAmending(order)}
                    data-testid="amend-order"
                  >
                    {t('spot.amend')}
                  </button>
                )}
                <button
                  type="button"
                  className="btn btn--outline spot-order__btn"
                  disabled={cancel.isPending && cancel.variables?.id === order.id}
                  data-testid="cancel-order"
                  onClick={async () => {
                    const isConfirmed = await Dialog.confirm({
                      content: t('spot.cancelConfirm', { pair: `${order.base}/${order.quote}` }),
                      confirmText: t('spot.cancelOrder'),
                      cancelText: t('trading.keepOrder'),
                    });
                    if (isConfirmed) cancel.mutate(order);
                  }}
                >
                  {t('spot.cancelOrder')}
                </button>
              </span>
            }
          />
        ))}
      </ul>
      <AmendSheet order={amending} lotSize={pair.lotSize} onClose={() => setAmending(null)} />
    </>
  );
}

function OrderHistory({ symbol }: { symbol: string }) {
  const { t } = useTranslation();
  const orders = useSpotOrders('history', symbol, true);
  if (orders.isPending) return <SkeletonRows count={3} height={88} />;
  if (orders.isError) return <ErrorState onRetry={() => void orders.refetch()} />;
  const items = orders.data.items;
  if (items.length === 0) return <EmptyState title={t('spot.noHistory')} hint={t('spot.noHistoryHint')} />;
  return (
    <ul className="spot-orders" data-testid="order-history">
      {items.map((order) => (
        <SpotOrderRow key={order.id} order={order} />
      ))}
    </ul>
  );
}

function TradeHistory({ symbol }: { symbol: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const timeZone = useDeploymentTimeZone();
  const trades = useSpotTrades(symbol, true);
  if (trades.isPending) return <SkeletonRows count={3} height={72} />;
  if (trades.isError) return <ErrorState onRetry={() => void trades.refetch()} />;
  const items = trades.data.items;
  if (items.length === 0) return <EmptyState title={t('spot.noTrades')} hint={t('spot.noTradesHint')} />;
  const num = (v: string) => formatNumber(v, { locale: language, digits: exactDigits(v) });
  return (
    <ul className="spot-orders" data-testid="trade-history">
      {items.map((trade) => (
        <li key={trade.id} className="spot-order" data-testid="spot-trade">
          <div className="spot-order__top">
            <span className={`side-tag side-tag--${trade.side}`}>{t(`trading.${trade.side}`)}</span>
            <b>{trade.symbol}</b>
            <span className={`liquidity-tag liquidity-tag--${trade.liquidity}`}>{t(`spot.${trade.liquidity}`)}</span>
          </div>
          <dl className="spot-order__grid tabular">
            <div>
              <dt>{t('trading.price')}</dt>
              <dd>{num(trade.price)}</dd>
            </div>
            <div>
              <dt>{t('trading.quantity')}</dt>
              <dd>{num(trade.quantity)}</dd>
            </div>
            <div>
              <dt>{t('trading.amount')}</dt>
              <dd>{num(trade.amount)}</dd>
            </div>
            <div>
              <dt>{t('trading.fee')}</dt>
              <dd data-testid="trade-fee">
                {num(trade.fee)} {trade.feeAsset}
              </dd>
            </div>
          </dl>
          <div className="spot-order__foot">
            <span className="spot-order__time">{formatDateTime(trade.time, timeZone)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

type AccountTab = 'open' | 'history' | 'trades';
type MarketPanel = 'book' | 'trades' | 'chart';

function PairBar({ pair, onOpen }: { pair: SpotPairView; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="pair-bar">
      <button type="button" className="pair-bar__pick" onClick={onOpen} data-testid="pair-pick" aria-haspopup="dialog">
        <b>{pairLabel(pair)}</b>
        <span className="pair-bar__caret" aria-hidden="true">
          ▾
        </span>
      </button>
      <Link
        className="text-button pair-bar__chart"
        to={`/pages/coin/coinKline?symbol=${encodeURIComponent(pair.symbol)}`}
      >
        {t('spot.fullChart')}
      </Link>
      <CoinStar symbol={pair.symbol} />
    </div>
  );
}

/** The trading screen's content, inside a Page (coin/index) or the Trade tab (with its switch on top). */
export function SpotTradingScreen({ top }: { top?: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const symbol = pairSymbolOf(params.get('symbol')) || readLastPair();
  const pairs = usePairs();
  const quote = useQuote('coin', symbol);
  const [isPairSheetOpen, setPairSheetOpen] = useState(false);
  const [panel, setPanel] = useState<MarketPanel>('book');
  const [tab, setTab] = useState<AccountTab>('open');
  // The lists show the current pair's orders, or every pair's.
  const [allPairs, setAllPairs] = useState(false);
  const [picked, setPicked] = useState<{ price: string; at: number } | null>(null);
  const tabsRef = useRef<HTMLDivElement>(null);
  useSpotAccountLive(session.token);
  useEffect(() => storeLastPair(symbol), [symbol]);

  const pickPair = (next: string) => {
    setPairSheetOpen(false);
    const copy = new URLSearchParams(params);
    copy.set('symbol', next);
    setParams(copy, { replace: true });
    setPicked(null);
  };

  const pair = pairs.data?.find((p) => pairSymbolOf(p.symbol) === symbol);
  const listSymbol = allPairs ? '' : (pair?.symbol ?? '');
  const data = quote.data;
  let content: ReactNode;
  if (pairs.isPending || quote.isPending) content = <SkeletonRows count={4} height={80} />;
  else if (pairs.isError) content = <ErrorState onRetry={() => void pairs.refetch()} />;
  else if (quote.isError) content = <ErrorState onRetry={() => void quote.refetch()} />;
  else if (!pair || !data)
    content = (
      <EmptyState
        title={t('spot.unknownPair', { symbol })}
        action={
          <button type="button" className="btn btn--primary" onClick={() => pickPair(defaultPairSymbol)}>
            {t('spot.openDefault', { pair: 'BTC/USDT' })}
          </button>
        }
      />
    );
  else
    content = (
      <>
        <PairBar pair={pair} onOpen={() => setPairSheetOpen(true)} />
        <QuoteHeader quote={data} />
        <section className="depth" aria-label={t('markets.depth')}>
          <Segmented
            value={panel}
            onChange={setPanel}
            label={t('markets.depth')}
            testId="market-panel"
            options={[
              { value: 'book', label: t('spot.panels.book') },
              { value: 'trades', label: t('spot.panels.trades') },
              { value: 'chart', label: t('spot.panels.chart') },
            ]}
          />
          {panel === 'book' ? (
            <OrderBook
              kind="coin"
              quote={data}
              depth={6}
              pickLabel={t('spot.usePrice')}
              onPrice={(price) => setPicked({ price, at: Date.now() })}
            />
          ) : panel === 'trades' ? (
            <RecentTrades kind="coin" quote={data} />
          ) : (
            // The chart code (lightweight-charts) loads only when this panel opens (Kline's lazy chart).
            <Kline kind="coin" quote={data} />
          )}
        </section>
        <OrderForm
          key={pair.symbol}
          pair={pair}
          quote={data}
          picked={picked}
          onPlaced={(order) => {
            setTab(isOpen(order) ? 'open' : compareDecimal(order.filledQuantity, '0') > 0 ? 'trades' : 'history');
            setTimeout(() => tabsRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }), 50);
          }}
        />
        {session.token && (
          <section className="spot-account" ref={tabsRef} aria-label={t('spot.myOrders')}>
            <Segmented
              value={tab}
              onChange={setTab}
              label={t('spot.myOrders')}
              testId="account-tabs"
              options={[
                { value: 'open', label: t('spot.tabs.open') },
                { value: 'history', label: t('spot.tabs.history') },
                { value: 'trades', label: t('spot.tabs.trades') },
              ]}
            />
            <label className="spot-check spot-all-pairs">
              <input
                type="checkbox"
                checked={allPairs}
                onChange={(event) => setAllPairs(event.target.checked)}
                data-testid="all-pairs"
              />
              <span>{t('spot.allPairs')}</span>
            </label>
            {tab === 'open' ? (
              <OpenOrders pair={pair} symbol={listSymbol} />
            ) : tab === 'history' ? (
              <OrderHistory symbol={listSymbol} />
            ) : (
              <TradeHistory symbol={listSymbol} />
            )}
          </section>
        )}
      </>
    );
  return (
    <div className="spot" data-testid="spot-screen">
      {top}
      {content}
      <PairSheet isOpen={isPairSheetOpen} current={symbol} onPick={pickPair} onClose={() => setPairSheetOpen(false)} />
    </div>
  );
}

export function CoinIndexPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('titles.coin.index')} className="spot-page">
      <SpotTradingScreen />
    </Page>
  );
}
