// Place a stock order (SPEC §2 pages/stock/order?symbol=…&side=buy): buy/sell switch, market or
// limit, price and quantity steppers, "% of available" slider, live quote with best bid/ask, the
// server's fee preview (debounced), then a confirmation sheet with the 6-digit transaction password.
// The order carries a clientOrderId (idempotency key) created per confirmation, reused on a retry after a
// lost answer and renewed after a refusal.

import type {
  PlaceStockOrderInput,
  PreviewStockOrderInput,
  QuoteView,
  StockOrderResult,
  StockOrderView,
} from '@bourse/contract';
import { compareDecimal, decimalPlaces } from '@bourse/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Slider, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiPost } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { useSession } from '../../app/session.ts';
import { PasscodeConfirmSheet, Stepper, useDebounced } from '../../app/shell/order-entry.tsx';
import { Page } from '../../app/shell/page.tsx';
import { currentLanguage } from '../../i18n/index.ts';

import { formatNumber } from '../../lib/format.ts';
import { formatAmount, formatPercentChange, formatPrice, quoteLocale } from '../../lib/market-format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { marketKeys, useBook, useQuote } from '../markets/market-api.ts';
import { bookRows, directionOf, priceDigits } from '../markets/market-math.ts';
import { EmptyState, ErrorState, SkeletonRows, useFlash } from '../markets/market-ui.tsx';
import {
  estimateAmount,
  type OrderErrors,
  type OrderSide,
  type OrderType,
  quantityForPercent,
  validateOrder,
} from './order-math.ts';
import { type OrderPreviewView, tradingKeys, useHolding, useStockBalances } from './trading-api.ts';
import { SignInPrompt, timeZoneOfCurrency } from './trading-ui.tsx';

function BestPrices({ quote, onPick }: { quote: QuoteView; onPick: (price: string) => void }) {
  const { t } = useTranslation();
  const book = useBook('stock', quote.symbol, quote.id);
  const locale = quoteLocale(quote, currentLanguage());
  const digits = priceDigits(quote.tickSize);
  const rows = book.data ? bookRows(book.data, 1) : null;
  const bid = rows?.bids[0]?.price;
  const ask = rows?.asks[0]?.price;
  return (
    <div className="best-prices">
      <button type="button" className="best-prices__cell" disabled={!bid} onClick={() => bid && onPick(bid)}>
        <span>{t('trading.bestBid')}</span>
        <b className="tabular num--up">{bid ? formatPrice(bid, locale, digits) : '--'}</b>
      </button>
      <button type="button" className="best-prices__cell" disabled={!ask} onClick={() => ask && onPick(ask)}>
        <span>{t('trading.bestAsk')}</span>
        <b className="tabular num--down">{ask ? formatPrice(ask, locale, digits) : '--'}</b>
      </button>
    </div>
  );
}

interface ConfirmState {
  clientOrderId: string;
  body: { symbol: string; orderType: OrderType; price?: string; quantity: string };
  side: OrderSide;
}

function ConfirmSheet({
  confirm,
  preview,
  quote,
  onClose,
  onDone,
}: {
  confirm: ConfirmState | null;
  preview: OrderPreviewView | undefined;
  quote: QuoteView;
  onClose: () => void;
  onDone: (order: StockOrderView) => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const currency = preview?.currency ?? quote.currency;
  const money = (v: string | undefined) => formatAmount(v, currency, language);
  const locale = quoteLocale(quote, language);
  const rows: [string, string][] = confirm
    ? [
        [t('trading.symbol'), `${quote.symbol} · ${quote.name}`],
        [t('trading.side'), t(`trading.${confirm.side}`)],
        [
          t('trading.price'),
          confirm.body.orderType === 'market'
            ? `${t('trading.market')} (≈ ${money(preview?.price ?? quote.price)})`
            : money(confirm.body.price),
        ],
        [t('trading.quantity'), formatNumber(confirm.body.quantity, { locale, digits: 0 })],
        [t('trading.amount'), money(preview?.amount)],
        [t('trading.fee'), money(preview?.fee)],
        [t('trading.total'), money(preview?.total)],
      ]
    : [];
  return (
    <PasscodeConfirmSheet
      isOpen={confirm !== null}
      orderKey={confirm?.clientOrderId ?? ''}
      rows={rows}
      notice={
        preview?.afterMarket && (
          <p className="confirm__notice" data-testid="after-market">
            {t('trading.afterMarketNotice')}
          </p>
        )
      }
      submit={(password, clientOrderId) => {
        if (!confirm) throw new Error('no order');
        return apiPost<StockOrderResult>(
          confirm.side === 'buy' ? '/stock/order/buy' : '/stock/order/sell',
          { ...confirm.body, password, clientOrderId } satisfies PlaceStockOrderInput,
          { isSilent: true, idempotencyKey: clientOrderId },
        );
      }}
      onDone={(result) => onDone(result.order)}
      onClose={onClose}
    />
  );
}

function OrderForm({ quote }: { quote: QuoteView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const language = currentLanguage();
  const locale = quoteLocale(quote, language);
  const digits = priceDigits(quote.tickSize);
  const side: OrderSide = params.get('side') === 'sell' ? 'sell' : 'buy';
  const [orderType, setOrderType] = useState<OrderType>(params.get('orderType') === 'limit' ? 'limit' : 'market');
  const [price, setPrice] = useState(params.get('price') ?? '');
  const [quantity, setQuantity] = useState('');
  const [percent, setPercent] = useState(0);
  const [isTouched, setTouched] = useState(false);
  const [confirm, setConfirm] = useState<ConfirmState | null>(null);
  const balances = useStockBalances(true);
  const holding = useHolding(quote.id, true);
  const balance = balances.data?.find((b) => b.asset === quote.currency);
  const sellable = holding.data?.sellable ?? '0';
  const flash = useFlash(quote.price);

  // A limit order starts from the last price.
  useEffect(() => {
    if (orderType === 'limit' && price === '') setPrice(quote.price);
  }, [orderType, price, quote.price]);

  const setSide = (next: OrderSide) => {
    const copy = new URLSearchParams(params);
    copy.set('side', next);
    setParams(copy, { replace: true });
    setPercent(0);
  };
  const effectivePrice = orderType === 'limit' ? price : quote.price;
  const errors: OrderErrors = validateOrder({
    side,
    orderType,
    price,
    quantity,
    tickSize: quote.tickSize,
    lot: quote.lot,
    sellable: side === 'sell' ? sellable : undefined,
    locked: holding.data?.locked,
    bandLo: quote.bandLo,
    bandHi: quote.bandHi,
  });
  const isValid = !errors.price && !errors.quantity;
  const previewInput = useDebounced(
    isValid
      ? ({
          symbol: quote.id,
          side,
          orderType,
          price: orderType === 'limit' ? price : undefined,
          quantity,
        } satisfies PreviewStockOrderInput)
      : null,
    400,
  );
  const preview = useQuery({
    queryKey: ['stock', 'order-preview', previewInput],
    queryFn: () => apiPost<OrderPreviewView>('/stock/order/preview', previewInput ?? {}, { isBackground: true }),
    enabled: previewInput !== null,
    retry: false,
    staleTime: 5_000,
  });
  const money = (v: string | undefined | null) => formatAmount(v, quote.currency, language);
  const errorText = (key: string | undefined) =>
    key && (isTouched || key !== 'quantity_required')
      ? t(`trading.errors.${key}`, {
          lot: quote.lot,
          time: formatDateTime(holding.data?.unlocksAt, timeZoneOfCurrency(quote.currency)),
        })
      : undefined;
  const estimated = estimateAmount(effectivePrice, quantity);
  const isInsufficient =
    side === 'buy' && preview.data !== undefined && compareDecimal(preview.data.total, preview.data.available) > 0;

  const onPercent = (value: number) => {
    setPercent(value);
    setQuantity(
      quantityForPercent({
        side,
        pct: value,
        available: balance?.available,
        price: effectivePrice,
        sellable,
        lot: quote.lot,
      }),
    );
  };

  const openConfirm = () => {
    setTouched(true);
    if (!isValid || !quote.listed) return;
    setConfirm({
      clientOrderId: newIdempotencyKey(),
      side,
      body: { symbol: quote.id, orderType, price: orderType === 'limit' ? price : undefined, quantity },
    });
  };

  const onDone = (order: StockOrderView) => {
    setConfirm(null);
    Toast.show({ icon: 'success', content: t('trading.submitted') });
    void queryClient.invalidateQueries({ queryKey: ['stock'] });
    void queryClient.invalidateQueries({ queryKey: tradingKeys.assets });
    void queryClient.invalidateQueries({ queryKey: marketKeys.quote('stock', quote.symbol) });
    navigate(`/pages/stock/list?tab=${order.status === 'pending' || order.status === 'partial' ? 'open' : 'history'}`, {
      replace: true,
    });
  };

  return (
    <div className={`order-form order-form--${side}`} data-testid="order-form">
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
            {t(`trading.${value}`)}
          </button>
        ))}
      </div>

      <section className="order-quote">
        <div>
          <p className="order-quote__symbol">
            {quote.symbol} <span>{quote.name}</span>
          </p>
          <p className={`order-quote__price tabular num--${directionOf(quote.change)} ${flash}`}>
            {formatPrice(quote.price, locale, digits)} <small>{formatPercentChange(quote.changePct, locale)}</small>
          </p>
        </div>
        <BestPrices
          quote={quote}
          onPick={(picked) => {
            setOrderType('limit');
            setPrice(picked);
          }}
        />
      </section>

      {!quote.isOpen && (
        <p className="order-note" data-testid="closed-note">
          {t('trading.marketClosedNote')}
        </p>
      )}
      {!quote.listed && <p className="order-note order-note--warn">{t('trading.unlistedNote')}</p>}

      <div className="order-type" title={t('trading.orderType')}>
        {(['market', 'limit'] as const).map((value) => (
          <button
            key={value}
            type="button"
            aria-pressed={orderType === value}
            className={orderType === value ? 'order-type__btn order-type__btn--active' : 'order-type__btn'}
            onClick={() => setOrderType(value)}
          >
            {t(`trading.${value}`)}
          </button>
        ))}
      </div>

      {orderType === 'limit' ? (
        <Stepper
          id="price"
          label={t('trading.limitPrice', { currency: quote.currency })}
          value={price}
          onChange={setPrice}
          step={quote.tickSize}
          maxDecimals={Math.max(decimalPlaces(quote.tickSize), 0)}
          error={errorText(errors.price)}
        />
      ) : (
        <p className="order-market-price">{t('trading.marketPriceHint', { price: money(quote.price) })}</p>
      )}
      <Stepper
        id="quantity"
        label={t('trading.quantityLot', { lot: quote.lot })}
        value={quantity}
        onChange={(value) => {
          setQuantity(value.replace(/\..*$/, ''));
          setPercent(0);
        }}
        step={String(quote.lot)}
        maxDecimals={0}
        placeholder={t('trading.quantityPlaceholder')}
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

      <dl className="order-figures">
        <div>
          <dt>{side === 'buy' ? t('trading.available') : t('trading.sellableShares')}</dt>
          <dd className="tabular" data-testid="available">
            {side === 'buy'
              ? balances.isPending
                ? '…'
                : money(balance?.available ?? '0')
              : holding.isPending
                ? '…'
                : formatNumber(sellable, { locale, digits: 0 })}
          </dd>
        </div>
        {side === 'sell' && holding.data && compareDecimal(holding.data.locked, '0') > 0 && (
          <div>
            <dt>{t('trading.lockedShares')}</dt>
            <dd className="tabular">{formatNumber(holding.data.locked, { locale, digits: 0 })}</dd>
          </div>
        )}
        <div>
          <dt>{t('trading.amount')}</dt>
          <dd className="tabular">{money(preview.data?.amount ?? estimated)}</dd>
        </div>
        <div>
          <dt>{t('trading.fee')}</dt>
          <dd className="tabular" data-testid="preview-fee">
            {preview.isFetching && !preview.data ? '…' : money(preview.data?.fee)}
          </dd>
        </div>
        <div className="order-figures__total">
          <dt>{side === 'buy' ? t('trading.totalCost') : t('trading.totalProceeds')}</dt>
          <dd className="tabular" data-testid="preview-total">
            {money(preview.data?.total)}
          </dd>
        </div>
      </dl>
      {preview.isError && (
        <p className="form-banner" role="alert">
          {preview.error.message}
        </p>
      )}
      {isInsufficient && (
        <p className="form-banner" role="alert">
          {t('trading.insufficientHint')}
        </p>
      )}

      <div className="order-submit">
        <button
          type="button"
          className={`btn btn--block order-submit__btn order-submit__btn--${side}`}
          disabled={!quote.listed || confirm !== null}
          onClick={openConfirm}
          data-testid="order-submit"
        >
          {t(side === 'buy' ? 'trading.buySymbol' : 'trading.sellSymbol', { symbol: quote.symbol })}
        </button>
      </div>
      <ConfirmSheet
        confirm={confirm}
        preview={preview.data}
        quote={quote}
        onClose={() => setConfirm(null)}
        onDone={onDone}
      />
    </div>
  );
}

export function OrderPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params] = useSearchParams();
  const symbol = params.get('symbol') ?? '';
  const quote = useQuote('stock', symbol);
  return (
    <Page title={t('titles.stock.order')}>
      {!session.token ? (
        <SignInPrompt messageKey="trading.signInToTrade" />
      ) : !symbol ? (
        <EmptyState
          title={t('markets.symbolMissing')}
          action={
            <Link className="btn btn--primary" to="/pages/stock/search">
              {t('markets.findStocks')}
            </Link>
          }
        />
      ) : quote.isPending ? (
        <SkeletonRows count={5} height={64} />
      ) : quote.isError ? (
        <ErrorState onRetry={() => void quote.refetch()} />
      ) : (
        <OrderForm quote={quote.data} />
      )}
    </Page>
  );
}
