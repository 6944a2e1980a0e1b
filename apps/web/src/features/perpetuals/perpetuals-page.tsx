// The contract side of the Trade tab (SPEC §3: leverage "multiple", margin, direction, TP/SL, positions,
// close one or all, add margin): the contract selector, mark and index prices, funding rate with its
// countdown, the book/trades/chart panel of the spot screen, the order form (long/short, leverage sheet,
// limit/market, % of available margin, optional TP/SL checked on the right side before sending) with a
// confirmation sheet, then positions, open orders, order history and funding/liquidation records. The
// server computes margins, P&L and liquidation prices; the screen only estimates the form's cost.

import type { PlacePerpOrderInput } from '@bourse/contract';
import { compareDecimal, decimalPlaces, signOfDecimal } from '@bourse/money';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dialog, Popup, Slider, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { apiPost as apiPostLoud } from '../../app/api.ts';
import { newIdempotencyKey } from '../../app/request.ts';
import { useSession } from '../../app/session.ts';
import { PasscodeConfirmSheet, Stepper } from '../../app/shell/order-entry.tsx';
import { useEscape } from '../../app/shell/use-escape.ts';
import { readStorage, writeStorage } from '../../app/storage-keys.ts';
import { useDeploymentTimeZone } from '../../app/use-deployment-time-zone.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { formatNumber } from '../../lib/format.ts';
import { formatDateTime } from '../../lib/time.ts';
import { Kline, OrderBook, RecentTrades } from '../markets/kline-page.tsx';
import { useQuote } from '../markets/market-api.ts';
import { EmptyState, ErrorState, Segmented, SkeletonRows } from '../markets/market-ui.tsx';
import { exactDigits, pairSymbolOf, trimZeros, validateSpotOrder } from '../spot/spot-math.ts';
import { SignInPrompt } from '../stocks/trading-ui.tsx';
import {
  addMargin,
  cancelPerpOrder,
  closeAllPositions,
  closePosition,
  defaultContractSymbol,
  type PerpContractView,
  type PerpFundingView,
  type PerpLiquidationView,
  type PerpOrderResult,
  type PerpOrderView,
  type PerpPositionView,
  perpKeys,
  refreshPerp,
  setLeverage,
  setStopLoss,
  setTakeProfit,
  useClosedPositions,
  useContracts,
  useLeverage,
  usePerpAccountLive,
  usePerpOrders,
  usePerpRecords,
  usePositions,
} from './perpetuals-api.ts';
import {
  clampLeverage,
  countdown,
  estimateLiquidationPrice,
  estimateOpenCost,
  fractionAsPercent,
  leveragePresets,
  nextFundingAt,
  type PerpDirection,
  perpQuantityForPercent,
  type TriggerError,
  validateTpSl,
} from './perpetuals-math.ts';
import '../spot/spot.css';
import './perpetuals.css';

const lastContractKey = 'perpContract';
const isResting = (order: PerpOrderView) => order.status === 'pending' || order.status === 'partial';
const usdt = 2;

function readLastContract(): string {
  return readStorage(lastContractKey) ?? defaultContractSymbol;
}

function storeLastContract(symbol: string): void {
  writeStorage(lastContractKey, symbol);
}

const errorMessage = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

/** Number formatting of the screen: prices at the tick's decimals, sizes at the lot's, USDT at 2. */
function useFormats(contract: Pick<PerpContractView, 'tickSize' | 'lotSize' | 'quote' | 'base'>) {
  const language = currentLanguage();
  const priceDigits = decimalPlaces(contract.tickSize);
  const sizeDigits = decimalPlaces(contract.lotSize);
  return {
    price: (v: string | null | undefined) => (v ? formatNumber(v, { locale: language, digits: priceDigits }) : '--'),
    size: (v: string | null | undefined) => (v ? formatNumber(v, { locale: language, digits: sizeDigits }) : '--'),
    money: (v: string | null | undefined) =>
      v ? `${formatNumber(v, { locale: language, digits: usdt })} ${contract.quote}` : '--',
    signed: (v: string | null | undefined) => {
      if (!v) return '--';
      const text = formatNumber(v, { locale: language, digits: usdt });
      return signOfDecimal(v) > 0 ? `+${text}` : text;
    },
    percent: (fraction: string | null | undefined, digits = 2) => {
      const pct = fractionAsPercent(fraction, digits);
      if (pct === null) return '--';
      const text = formatNumber(pct, { locale: language, digits });
      return `${signOfDecimal(pct) > 0 ? '+' : ''}${text}%`;
    },
    plainPercent: (fraction: string | null | undefined) => {
      const pct = fractionAsPercent(fraction, 2);
      return pct === null ? '--' : `${formatNumber(pct, { locale: language, digits: 2 })}%`;
    },
  };
}

const toneOf = (value: string | null | undefined) => {
  const sign = signOfDecimal(value);
  return sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat';
};

// --- contract selector and header ----------------------------------------------------------------

function ContractSheet({
  isOpen,
  contracts,
  current,
  onPick,
  onClose,
}: {
  isOpen: boolean;
  contracts: readonly PerpContractView[];
  current: string;
  onPick: (symbol: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  useEscape(isOpen, onClose);
  return (
    <Popup visible={isOpen} onMaskClick={onClose} onClose={onClose} bodyClassName="sheet">
      <div role="dialog" aria-modal="true" aria-label={t('perp.chooseContract')} data-testid="contract-sheet">
        <div className="sheet__head">
          <h2 className="sheet__title">{t('perp.chooseContract')}</h2>
          <button type="button" className="text-button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <ul className="sheet__body pair-sheet__list">
          {contracts.map((contract) => (
            <li key={contract.id}>
              <button
                type="button"
                className={contract.symbol === current ? 'pair-row pair-row--current' : 'pair-row'}
                onClick={() => onPick(contract.symbol)}
                data-testid="contract-row"
              >
                <span className="pair-row__names">
                  <b>{t('perp.contractName', { base: contract.base, quote: contract.quote })}</b>
                  <span>{t('perp.upTo', { leverage: contract.allowedMaxLeverage })}</span>
                </span>
                <span className="pair-row__price tabular">
                  {contract.markPrice
                    ? formatNumber(contract.markPrice, { locale: language, digits: decimalPlaces(contract.tickSize) })
                    : '--'}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </Popup>
  );
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function ContractHeader({ contract, onPick }: { contract: PerpContractView; onPick: () => void }) {
  const { t } = useTranslation();
  const f = useFormats(contract);
  const now = useNow(1000);
  // The server's next funding time; if it has passed (a stale answer), the schedule's next one.
  const nextFunding = contract.nextFundingTime > now ? contract.nextFundingTime : nextFundingAt(now);
  return (
    <section className="perp-head" aria-label={t('perp.contractInfo')}>
      <div className="pair-bar">
        <button
          type="button"
          className="pair-bar__pick"
          onClick={onPick}
          data-testid="contract-pick"
          aria-haspopup="dialog"
        >
          <b>{`${contract.base}${contract.quote}`}</b>
          <span className="pair-bar__caret" aria-hidden="true">
            ▾
          </span>
        </button>
        <span className="perp-head__tag">{t('perp.perpetual')}</span>
      </div>
      <div className="perp-head__mark">
        <span className="perp-head__label">{t('perp.markPrice')}</span>
        <b className="perp-head__price tabular" data-testid="mark-price">
          {f.price(contract.markPrice)}
        </b>
      </div>
      <dl className="perp-head__grid tabular">
        <div>
          <dt>{t('perp.indexPrice')}</dt>
          <dd data-testid="index-price">{f.price(contract.indexPrice)}</dd>
        </div>
        <div>
          <dt>{t('perp.fundingRate')}</dt>
          <dd className={`num--${toneOf(contract.fundingRate)}`} data-testid="funding-rate">
            {f.percent(contract.fundingRate, 4)}
          </dd>
        </div>
        <div>
          <dt>{t('perp.nextFunding')}</dt>
          <dd data-testid="funding-countdown">{countdown(nextFunding, now)}</dd>
        </div>
        <div>
          <dt>{t('perp.openInterest')}</dt>
          <dd>
            {f.size(contract.openInterest)} {contract.base}
          </dd>
        </div>
      </dl>
    </section>
  );
}

type MarketPanel = 'book' | 'trades' | 'chart';

/**
 * The contract's own order book (its liquidity account and customers' orders), and the index's trades and
 * chart: the spot market of the same coin, which the mark price follows.
 */
function MarketPanels({ symbol, onPrice }: { symbol: string; onPrice: (price: string) => void }) {
  const { t } = useTranslation();
  const quote = useQuote('coin', symbol);
  const [panel, setPanel] = useState<MarketPanel>('book');
  if (quote.isPending) return <SkeletonRows count={3} height={60} />;
  if (!quote.data) return null;
  return (
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
          quote={quote.data}
          depth={5}
          pickLabel={t('spot.usePrice')}
          onPrice={onPrice}
          bookPath="/coin/contract/books"
        />
      ) : panel === 'trades' ? (
        <RecentTrades kind="coin" quote={quote.data} />
      ) : (
        <Kline kind="coin" quote={quote.data} />
      )}
    </section>
  );
}

// --- leverage --------------------------------------------------------------------------------------

function LeverageSheet({
  contract,
  current,
  max,
  onClose,
}: {
  contract: PerpContractView;
  current: number;
  max: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | null>(null);
  useEscape(true, onClose);
  const save = useMutation({
    mutationFn: () => setLeverage(contract.symbol, value),
    onSuccess: (view) => {
      queryClient.setQueryData(perpKeys.leverage(contract.symbol), view);
      refreshPerp(queryClient);
      Toast.show({ content: t('perp.leverageSet', { leverage: view.leverage }) });
      onClose();
    },
    onError: (cause) => setError(errorMessage(cause)),
  });
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyClassName="sheet">
      <div role="dialog" aria-modal="true" aria-label={t('perp.leverage')} data-testid="leverage-sheet">
        <div className="sheet__head">
          <h2 className="sheet__title">{t('perp.leverage')}</h2>
          <button type="button" className="text-button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <div className="sheet__body perp-leverage">
          <p className="perp-leverage__value tabular" data-testid="leverage-value">
            {value}×
          </p>
          <Slider
            min={1}
            max={max}
            step={1}
            value={value}
            onChange={(next) => {
              setValue(clampLeverage(Array.isArray(next) ? (next[0] ?? 1) : next, max));
              setError(null);
            }}
            aria-label={t('perp.leverage')}
          />
          <div className="perp-leverage__presets">
            {leveragePresets(max).map((preset) => (
              <button
                key={preset}
                type="button"
                aria-pressed={value === preset}
                className={value === preset ? 'order-type__btn order-type__btn--active' : 'order-type__btn'}
                onClick={() => {
                  setValue(preset);
                  setError(null);
                }}
                data-testid={`leverage-${preset}`}
              >
                {preset}×
              </button>
            ))}
          </div>
          <p className="section-hint">{t('perp.leverageHint', { max })}</p>
          {error && (
            <p className="form-banner" role="alert" data-testid="leverage-error">
              {error}
            </p>
          )}
          <button
            type="button"
            className="btn btn--primary btn--block"
            disabled={save.isPending}
            onClick={() => save.mutate()}
            data-testid="leverage-save"
          >
            {save.isPending ? t('common.loading') : t('perp.setLeverage', { leverage: value })}
          </button>
        </div>
      </div>
    </Popup>
  );
}

// --- order form ------------------------------------------------------------------------------------

interface ConfirmState {
  orderKey: string;
  body: Omit<PlacePerpOrderInput, 'password' | 'clientOrderId'>;
}

function PerpOrderForm({
  contract,
  picked,
  available,
  hasPosition,
  onPlaced,
}: {
  contract: PerpContractView;
  picked: { price: string; at: number } | null;
  available: string | undefined;
  /** With a position on this contract, the order changes it: no estimate for a new one is shown. */
  hasPosition: boolean;
  onPlaced: (order: PerpOrderView) => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const f = useFormats(contract);
  const [direction, setDirection] = useState<PerpDirection>('long');
  const [type, setType] = useState<'limit' | 'market'>('market');
  const [price, setPrice] = useState('');
  const [quantity, setQuantity] = useState('');
  const [percent, setPercent] = useState(0);
  const [hasTpSl, setHasTpSl] = useState(false);
  const [takeProfit, setTakeProfitText] = useState('');
  const [stopLoss, setStopLossText] = useState('');
  const [isTouched, setTouched] = useState(false);
  const [isLeverageOpen, setLeverageOpen] = useState(false);
  const [confirm, setConfirm] = useState<ConfirmState | null>(null);
  const leverageQuery = useLeverage(contract.symbol, Boolean(session.token));
  const leverage = leverageQuery.data?.leverage ?? contract.defaultLeverage;
  const maxLeverage = leverageQuery.data?.maxLeverage ?? contract.allowedMaxLeverage;
  const priceDigits = decimalPlaces(contract.tickSize);
  const lotDigits = decimalPlaces(contract.lotSize);
  const mark = contract.markPrice;

  useEffect(() => {
    if (!picked) return;
    setType('limit');
    setPrice(picked.price);
  }, [picked]);

  const reference = type === 'market' ? mark : price;
  const orderErrors = validateSpotOrder({
    side: direction === 'long' ? 'buy' : 'sell',
    type,
    price,
    stopPrice: '',
    quantity,
    tickSize: contract.tickSize,
    lotSize: contract.lotSize,
    minQuantity: contract.minQuantity,
    maxQuantity: '0',
    minNotional: '0',
    marketPrice: mark,
  });
  const triggerErrors = hasTpSl
    ? validateTpSl({ direction, reference, takeProfit, stopLoss, tickSize: contract.tickSize })
    : {};
  const isValid = !orderErrors.price && !orderErrors.quantity && !triggerErrors.takeProfit && !triggerErrors.stopLoss;
  const cost = estimateOpenCost({
    price: reference,
    quantity,
    leverage,
    takerFeeBps: type === 'market' ? contract.takerFeeBps : contract.makerFeeBps,
    decimals: usdt,
  });
  const liquidation =
    cost && !hasPosition
      ? estimateLiquidationPrice({
          direction,
          entryPrice: reference,
          quantity,
          margin: cost.margin,
          tiers: contract.tiers,
          tickSize: contract.tickSize,
        })
      : null;
  const isShort = cost !== null && available !== undefined && compareDecimal(cost.total, available) > 0;

  const fieldText = (key: string | undefined) =>
    key && (isTouched || key !== 'quantity_required')
      ? t(`spot.errors.${key}`, {
          minQuantity: `${contract.minQuantity} ${contract.base}`,
          lot: contract.lotSize,
          tick: contract.tickSize,
          maxQuantity: '',
          minNotional: '',
        })
      : undefined;
  const triggerText = (key: TriggerError | undefined, which: 'takeProfit' | 'stopLoss') =>
    key === 'trigger_wrong_side'
      ? t(`perp.wrongSide.${direction}.${which}`, { price: f.price(reference) })
      : key
        ? t(`spot.errors.${key}`, { tick: contract.tickSize })
        : undefined;

  const onPercent = (value: number) => {
    setPercent(value);
    setQuantity(
      perpQuantityForPercent({
        pct: value,
        available,
        price: reference,
        leverage,
        lotSize: contract.lotSize,
        takerFeeBps: contract.takerFeeBps,
      }),
    );
  };

  const openConfirm = () => {
    setTouched(true);
    if (!isValid) return;
    setConfirm({
      orderKey: newIdempotencyKey(),
      body: {
        symbol: contract.symbol,
        side: direction,
        type,
        price: type === 'limit' ? price : undefined,
        quantity,
        takeProfit: hasTpSl && takeProfit ? takeProfit : undefined,
        stopLoss: hasTpSl && stopLoss ? stopLoss : undefined,
      },
    });
  };

  const onDone = (result: PerpOrderResult) => {
    setConfirm(null);
    setQuantity('');
    setPercent(0);
    setTakeProfitText('');
    setStopLossText('');
    setTouched(false);
    Toast.show({ icon: 'success', content: t(isResting(result.order) ? 'perp.placedOpen' : 'perp.placedFilled') });
    refreshPerp(queryClient);
    onPlaced(result.order);
  };

  if (!session.token) {
    return (
      <section className="spot-form" aria-label={t('spot.orderForm')}>
        <SignInPrompt messageKey="perp.signInToTrade" />
      </section>
    );
  }

  const sideClass = direction === 'long' ? 'buy' : 'sell';
  const confirmRows: [string, ReactNode][] = confirm
    ? [
        [t('perp.contract'), t('perp.contractName', { base: contract.base, quote: contract.quote })],
        [t('perp.direction'), t(`perp.${confirm.body.side}`)],
        [t('perp.leverage'), `${leverage}×`],
        [t('spot.orderType'), t(`spot.types.${confirm.body.type ?? 'market'}`)],
        [
          t('trading.price'),
          confirm.body.type === 'market'
            ? `${t('spot.types.market')} (≈ ${f.price(mark)})`
            : f.price(confirm.body.price),
        ],
        [t('perp.size'), `${f.size(confirm.body.quantity)} ${contract.base}`],
        ...(confirm.body.takeProfit
          ? [[t('perp.takeProfit'), f.price(confirm.body.takeProfit)] as [string, string]]
          : []),
        ...(confirm.body.stopLoss ? [[t('perp.stopLoss'), f.price(confirm.body.stopLoss)] as [string, string]] : []),
        [t('perp.initialMargin'), f.money(cost?.margin)],
        ...(hasPosition ? [] : [[t('perp.estLiqPrice'), `≈ ${f.price(liquidation)}`] as [string, string]]),
        [t('trading.fee'), f.money(cost?.fee)],
        [t('perp.cost'), f.money(cost?.total)],
      ]
    : [];

  return (
    <section className={`spot-form spot-form--${sideClass}`} aria-label={t('spot.orderForm')} data-testid="perp-form">
      <div className="side-switch" role="tablist" aria-label={t('perp.direction')}>
        {(['long', 'short'] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={direction === value}
            className={
              direction === value
                ? `side-switch__btn side-switch__btn--${value === 'long' ? 'buy' : 'sell'}`
                : 'side-switch__btn'
            }
            onClick={() => {
              setDirection(value);
              setPercent(0);
            }}
            data-testid={`direction-${value}`}
          >
            {t(`perp.${value}`)}
          </button>
        ))}
      </div>

      <div className="perp-form__row">
        <button
          type="button"
          className="btn btn--outline perp-form__leverage"
          onClick={() => setLeverageOpen(true)}
          aria-haspopup="dialog"
          data-testid="leverage-open"
        >
          {t('perp.leverageButton', { leverage })}
        </button>
        <div className="order-type perp-form__types" title={t('spot.orderType')}>
          {(['market', 'limit'] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={type === value}
              className={type === value ? 'order-type__btn order-type__btn--active' : 'order-type__btn'}
              onClick={() => {
                setType(value);
                // A limit order starts from the mark; set here, not in an effect, so typing right after wins.
                if (value === 'limit' && price === '' && mark) setPrice(mark);
              }}
              data-testid={`type-${value}`}
            >
              {t(`spot.types.${value}`)}
            </button>
          ))}
        </div>
      </div>

      {type === 'market' ? (
        <p className="order-market-price">{t('perp.marketHint', { price: f.price(mark) })}</p>
      ) : (
        <Stepper
          id="price"
          label={t('spot.priceIn', { quote: contract.quote })}
          value={price}
          onChange={setPrice}
          step={contract.tickSize}
          maxDecimals={priceDigits}
          error={fieldText(orderErrors.price)}
        />
      )}
      <Stepper
        id="quantity"
        label={t('perp.sizeIn', { base: contract.base })}
        value={quantity}
        onChange={(value) => {
          setQuantity(value);
          setPercent(0);
        }}
        step={contract.lotSize}
        maxDecimals={lotDigits}
        placeholder={t('spot.quantityPlaceholder', { lot: contract.lotSize })}
        error={fieldText(orderErrors.quantity)}
      />
      <div className="percent-slider">
        <Slider
          value={percent}
          onChange={(value) => onPercent(Array.isArray(value) ? (value[0] ?? 0) : value)}
          step={25}
          ticks
          marks={{ 0: '0%', 25: '25%', 50: '50%', 75: '75%', 100: '100%' }}
          aria-label={t('perp.percentOfMargin')}
        />
      </div>

      <label className="spot-check">
        <input
          type="checkbox"
          checked={hasTpSl}
          onChange={(event) => setHasTpSl(event.target.checked)}
          data-testid="tpsl-toggle"
        />
        <span>{t('perp.tpSl')}</span>
      </label>
      {hasTpSl && (
        <div className="perp-form__tpsl">
          <Stepper
            id="take-profit"
            label={t('perp.takeProfitIn', { quote: contract.quote })}
            value={takeProfit}
            onChange={setTakeProfitText}
            step={contract.tickSize}
            maxDecimals={priceDigits}
            placeholder={t('perp.optional')}
            error={triggerText(triggerErrors.takeProfit, 'takeProfit')}
          />
          <Stepper
            id="stop-loss"
            label={t('perp.stopLossIn', { quote: contract.quote })}
            value={stopLoss}
            onChange={setStopLossText}
            step={contract.tickSize}
            maxDecimals={priceDigits}
            placeholder={t('perp.optional')}
            error={triggerText(triggerErrors.stopLoss, 'stopLoss')}
          />
        </div>
      )}

      <dl className="order-figures">
        <div>
          <dt>{t('perp.availableMargin')}</dt>
          <dd className="tabular" data-testid="perp-available">
            {available === undefined ? '…' : f.money(available)}
          </dd>
        </div>
        <div>
          <dt>{t('perp.initialMargin')}</dt>
          <dd className="tabular" data-testid="perp-margin">
            {f.money(cost?.margin)}
          </dd>
        </div>
        <div>
          <dt>{t('trading.fee')}</dt>
          <dd className="tabular">{f.money(cost?.fee)}</dd>
        </div>
        {!hasPosition && (
          <div>
            <dt>{t('perp.estLiqPrice')}</dt>
            <dd className="tabular" data-testid="perp-est-liq">
              {cost ? `≈ ${f.price(liquidation)}` : '--'}
            </dd>
          </div>
        )}
        <div className="order-figures__total">
          <dt>{t('perp.cost')}</dt>
          <dd className="tabular" data-testid="perp-cost">
            {f.money(cost?.total)}
          </dd>
        </div>
      </dl>
      <p className="perp-form__transfer">
        <Link to="/pages/exchange/cryptoTransfer?asset=USDT" data-testid="perp-transfer">
          {t('perp.transfer')}
        </Link>
      </p>
      {isShort && (
        <p className="form-banner" role="alert">
          {t('perp.insufficient')}
        </p>
      )}
      <button
        type="button"
        className={`btn btn--block order-submit__btn order-submit__btn--${sideClass}`}
        disabled={confirm !== null}
        onClick={openConfirm}
        data-testid="perp-submit"
      >
        {t(direction === 'long' ? 'perp.openLong' : 'perp.openShort')}
      </button>
      {isLeverageOpen && (
        <LeverageSheet
          contract={contract}
          current={leverage}
          max={maxLeverage}
          onClose={() => setLeverageOpen(false)}
        />
      )}
      <PasscodeConfirmSheet
        isOpen={confirm !== null}
        orderKey={confirm?.orderKey ?? ''}
        rows={confirmRows}
        notice={<p className="confirm__notice">{t('perp.confirmNotice')}</p>}
        submit={(password, clientOrderId) => {
          if (!confirm) throw new Error('no order');
          return apiPostLoud<PerpOrderResult>(
            '/coin/contract/order/add',
            { ...confirm.body, password, clientOrderId } satisfies PlacePerpOrderInput,
            { isSilent: true, idempotencyKey: clientOrderId },
          );
        }}
        onDone={onDone}
        onClose={() => setConfirm(null)}
      />
    </section>
  );
}

// --- positions -------------------------------------------------------------------------------------

function TpSlSheet({
  position,
  contract,
  onClose,
}: {
  position: PerpPositionView;
  contract: PerpContractView;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const f = useFormats(contract);
  const [takeProfit, setTp] = useState(position.takeProfit ? trimZeros(position.takeProfit) : '');
  const [stopLoss, setSl] = useState(position.stopLoss ? trimZeros(position.stopLoss) : '');
  const [error, setError] = useState<string | null>(null);
  useEscape(true, onClose);
  const errors = validateTpSl({
    direction: position.side,
    reference: position.entryPrice,
    takeProfit,
    stopLoss,
    tickSize: contract.tickSize,
  });
  const text = (key: TriggerError | undefined, which: 'takeProfit' | 'stopLoss') =>
    key === 'trigger_wrong_side'
      ? t(`perp.wrongSide.${position.side}.${which}`, { price: f.price(position.entryPrice) })
      : key
        ? t(`spot.errors.${key}`, { tick: contract.tickSize })
        : undefined;
  const same = (a: string, b: string | null) => (a === '' ? b === null : b !== null && compareDecimal(a, b) === 0);
  const save = useMutation({
    mutationFn: async () => {
      // Each trigger is its own call; only what changed is sent ("" clears).
      if (!same(takeProfit, position.takeProfit)) await setTakeProfit(position.id, takeProfit);
      if (!same(stopLoss, position.stopLoss)) await setStopLoss(position.id, stopLoss);
    },
    onSuccess: () => {
      refreshPerp(queryClient);
      Toast.show({ content: t('perp.tpSlSaved') });
      onClose();
    },
    onError: (cause) => {
      refreshPerp(queryClient);
      setError(errorMessage(cause));
    },
  });
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyClassName="sheet">
      <div role="dialog" aria-modal="true" aria-label={t('perp.tpSlTitle')} data-testid="tpsl-sheet">
        <div className="sheet__head">
          <h2 className="sheet__title">{t('perp.tpSlTitle')}</h2>
          <button type="button" className="text-button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <div className="sheet__body perp-sheet">
          <p className="section-hint">
            {t('perp.tpSlHint', { entry: f.price(position.entryPrice), mark: f.price(position.markPrice) })}
          </p>
          <Stepper
            id="position-tp"
            label={t('perp.takeProfitIn', { quote: contract.quote })}
            value={takeProfit}
            onChange={(value) => {
              setTp(value);
              setError(null);
            }}
            step={contract.tickSize}
            maxDecimals={decimalPlaces(contract.tickSize)}
            placeholder={t('perp.none')}
            error={text(errors.takeProfit, 'takeProfit')}
          />
          <Stepper
            id="position-sl"
            label={t('perp.stopLossIn', { quote: contract.quote })}
            value={stopLoss}
            onChange={(value) => {
              setSl(value);
              setError(null);
            }}
            step={contract.tickSize}
            maxDecimals={decimalPlaces(contract.tickSize)}
            placeholder={t('perp.none')}
            error={text(errors.stopLoss, 'stopLoss')}
          />
          <p className="section-hint">{t('perp.clearHint')}</p>
          {error && (
            <p className="form-banner" role="alert" data-testid="tpsl-error">
              {error}
            </p>
          )}
          <button
            type="button"
            className="btn btn--primary btn--block"
            disabled={Boolean(errors.takeProfit || errors.stopLoss) || save.isPending}
            onClick={() => save.mutate()}
            data-testid="tpsl-save"
          >
            {save.isPending ? t('common.loading') : t('common.save')}
          </button>
        </div>
      </div>
    </Popup>
  );
}

function AddMarginSheet({
  position,
  contract,
  available,
  onClose,
}: {
  position: PerpPositionView;
  contract: PerpContractView;
  available: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const f = useFormats(contract);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [clientId] = useState(newIdempotencyKey);
  useEscape(true, onClose);
  const isOver = amount !== '' && available !== undefined && compareDecimal(amount, available) > 0;
  const isZero = amount === '' || compareDecimal(amount, '0') <= 0;
  const save = useMutation({
    mutationFn: () => addMargin(position.id, amount, clientId),
    onSuccess: () => {
      refreshPerp(queryClient);
      Toast.show({ content: t('perp.marginAdded') });
      onClose();
    },
    onError: (cause) => setError(errorMessage(cause)),
  });
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyClassName="sheet">
      <div role="dialog" aria-modal="true" aria-label={t('perp.addMargin')} data-testid="margin-sheet">
        <div className="sheet__head">
          <h2 className="sheet__title">{t('perp.addMargin')}</h2>
          <button type="button" className="text-button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <div className="sheet__body perp-sheet">
          <dl className="order-figures">
            <div>
              <dt>{t('perp.margin')}</dt>
              <dd className="tabular">{f.money(position.margin)}</dd>
            </div>
            <div>
              <dt>{t('perp.liqPrice')}</dt>
              <dd className="tabular">{f.price(position.liquidationPrice)}</dd>
            </div>
            <div>
              <dt>{t('perp.availableMargin')}</dt>
              <dd className="tabular">{f.money(available)}</dd>
            </div>
          </dl>
          <Stepper
            id="margin-amount"
            label={t('perp.amountIn', { quote: contract.quote })}
            value={amount}
            onChange={(value) => {
              setAmount(value);
              setError(null);
            }}
            step="1"
            maxDecimals={usdt}
            error={isOver ? t('perp.insufficient') : undefined}
          />
          {error && (
            <p className="form-banner" role="alert" data-testid="margin-error">
              {error}
            </p>
          )}
          <button
            type="button"
            className="btn btn--primary btn--block"
            disabled={isZero || isOver || save.isPending}
            onClick={() => save.mutate()}
            data-testid="margin-save"
          >
            {save.isPending ? t('common.loading') : t('perp.addMargin')}
          </button>
        </div>
      </div>
    </Popup>
  );
}

function PositionCard({
  position,
  contract,
  onTpSl,
  onMargin,
}: {
  position: PerpPositionView;
  contract: PerpContractView;
  onTpSl: () => void;
  onMargin: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const f = useFormats(contract);
  const close = useMutation({
    mutationFn: () => closePosition(position.id),
    onSuccess: () => {
      refreshPerp(queryClient);
      Toast.show({ content: t('perp.closed') });
    },
    onError: (cause) => Toast.show({ content: errorMessage(cause) }),
  });
  const tone = toneOf(position.unrealizedPnl);
  return (
    <li className="spot-order perp-position" data-testid="position">
      <div className="spot-order__top">
        <span className={`side-tag side-tag--${position.side === 'long' ? 'buy' : 'sell'}`}>
          {t(`perp.${position.side}`)}
        </span>
        <b>{t('perp.contractName', { base: contract.base, quote: contract.quote })}</b>
        <span className="perp-position__leverage">{position.leverage}×</span>
      </div>
      <div className={`perp-position__pnl num--${tone}`}>
        <span className="perp-position__label">{t('perp.unrealizedPnl')}</span>
        <b className="tabular" data-testid="position-pnl">
          {f.signed(position.unrealizedPnl)} {contract.quote}
        </b>
        <span className="tabular">({f.percent(position.roe)})</span>
      </div>
      <dl className="spot-order__grid perp-position__grid tabular">
        <div>
          <dt>{t('perp.size')}</dt>
          <dd data-testid="position-size">{f.size(position.size)}</dd>
        </div>
        <div>
          <dt>{t('perp.entryPrice')}</dt>
          <dd>{f.price(position.entryPrice)}</dd>
        </div>
        <div>
          <dt>{t('perp.markPrice')}</dt>
          <dd>{f.price(position.markPrice)}</dd>
        </div>
        <div>
          <dt>{t('perp.liqPrice')}</dt>
          <dd className={position.liquidationPrice ? 'num--down' : undefined} data-testid="position-liq">
            {f.price(position.liquidationPrice)}
          </dd>
        </div>
        <div>
          <dt>{t('perp.margin')}</dt>
          <dd data-testid="position-margin">{f.money(position.margin)}</dd>
        </div>
        <div>
          <dt>{t('perp.marginRatio')}</dt>
          <dd>{f.plainPercent(position.marginRatio)}</dd>
        </div>
        <div>
          <dt>{t('perp.takeProfit')}</dt>
          <dd data-testid="position-tp">{f.price(position.takeProfit)}</dd>
        </div>
        <div>
          <dt>{t('perp.stopLoss')}</dt>
          <dd data-testid="position-sl">{f.price(position.stopLoss)}</dd>
        </div>
      </dl>
      <div className="perp-position__actions">
        <button type="button" className="btn btn--outline spot-order__btn" onClick={onTpSl} data-testid="position-tpsl">
          {t('perp.tpSl')}
        </button>
        <button
          type="button"
          className="btn btn--outline spot-order__btn"
          onClick={onMargin}
          data-testid="position-margin-add"
        >
          {t('perp.addMargin')}
        </button>
        <button
          type="button"
          className="btn btn--outline spot-order__btn"
          disabled={close.isPending}
          data-testid="position-close"
          onClick={async () => {
            const isConfirmed = await Dialog.confirm({
              content: t('perp.closeConfirm', { size: f.size(position.size), base: contract.base }),
              confirmText: t('perp.close'),
              cancelText: t('common.cancel'),
            });
            if (isConfirmed) close.mutate();
          }}
        >
          {t('perp.close')}
        </button>
      </div>
    </li>
  );
}

function Positions({
  contracts,
  available,
}: {
  contracts: readonly PerpContractView[];
  available: string | undefined;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const positions = usePositions(true);
  const [editing, setEditing] = useState<{ id: string; sheet: 'tpsl' | 'margin' } | null>(null);
  const closeAll = useMutation({
    mutationFn: closeAllPositions,
    onSuccess: (result) => {
      refreshPerp(queryClient);
      Toast.show({ content: t('perp.closedAll', { count: result.orders.length }) });
    },
    onError: (cause) => Toast.show({ content: errorMessage(cause) }),
  });
  if (positions.isPending) return <SkeletonRows count={2} height={120} />;
  if (positions.isError) return <ErrorState onRetry={() => void positions.refetch()} />;
  const items = positions.data.positions;
  const contractOf = (symbol: string) => contracts.find((c) => c.symbol === pairSymbolOf(symbol));
  const editingPosition = editing ? items.find((p) => p.id === editing.id) : undefined;
  const editingContract = editingPosition ? contractOf(editingPosition.symbol) : undefined;
  return (
    <>
      <div className="perp-positions__bar">
        <span className="perp-positions__total tabular">
          {t('perp.totalPnl')}{' '}
          <b className={`num--${toneOf(positions.data.unrealizedPnl)}`}>
            {formatNumber(positions.data.unrealizedPnl, { locale: currentLanguage(), digits: usdt })} USDT
          </b>
        </span>
        <button
          type="button"
          className="btn btn--outline spot-order__btn"
          disabled={closeAll.isPending}
          data-testid="close-all"
          onClick={async () => {
            // With nothing open the server answers "no closable orders"; ask only when there is something.
            if (items.length > 0) {
              const isConfirmed = await Dialog.confirm({
                content: t('perp.closeAllConfirm', { count: items.length }),
                confirmText: t('perp.closeAll'),
                cancelText: t('common.cancel'),
              });
              if (!isConfirmed) return;
            }
            closeAll.mutate();
          }}
        >
          {t('perp.closeAll')}
        </button>
      </div>
      {items.length === 0 ? (
        <EmptyState title={t('perp.noPositions')} hint={t('perp.noPositionsHint')} />
      ) : (
        <ul className="spot-orders" data-testid="positions">
          {items.map((position) => {
            const contract = contractOf(position.symbol);
            if (!contract) return null;
            return (
              <PositionCard
                key={position.id}
                position={position}
                contract={contract}
                onTpSl={() => setEditing({ id: position.id, sheet: 'tpsl' })}
                onMargin={() => setEditing({ id: position.id, sheet: 'margin' })}
              />
            );
          })}
        </ul>
      )}
      {editing && editingPosition && editingContract && editing.sheet === 'tpsl' && (
        <TpSlSheet position={editingPosition} contract={editingContract} onClose={() => setEditing(null)} />
      )}
      {editing && editingPosition && editingContract && editing.sheet === 'margin' && (
        <AddMarginSheet
          position={editingPosition}
          contract={editingContract}
          available={available}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}

// --- orders and records ----------------------------------------------------------------------------

function PerpOrderRow({ order, actions }: { order: PerpOrderView; actions?: ReactNode }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const timeZone = useDeploymentTimeZone();
  const num = (v: string | null) => (v ? formatNumber(v, { locale: language, digits: exactDigits(v) }) : '--');
  return (
    <li className="spot-order" data-testid="perp-order">
      <div className="spot-order__top">
        <span className={`side-tag side-tag--${order.side}`}>{t(`perp.orderSide.${order.side}`)}</span>
        <b>{order.symbol}</b>
        <span className="spot-order__type">
          {t(`spot.types.${order.type}`)} · {t(`perp.purpose.${order.purpose}`)}
        </span>
        <span className={`status-chip status-chip--${order.status}`}>{t(`perp.status.${order.status}`)}</span>
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
        <div>
          <dt>{t('spot.avgPrice')}</dt>
          <dd>{num(order.avgPrice)}</dd>
        </div>
        <div>
          <dt>{t('trading.fee')}</dt>
          <dd>{compareDecimal(order.fee, '0') > 0 ? `${num(order.fee)} USDT` : '--'}</dd>
        </div>
      </dl>
      <div className="spot-order__foot">
        <span className="spot-order__time">
          {formatDateTime(order.createdAt, timeZone)} · {order.leverage}×
        </span>
        {actions}
      </div>
    </li>
  );
}

function OpenPerpOrders() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const orders = usePerpOrders('open', '', true);
  const cancel = useMutation({
    mutationFn: (order: PerpOrderView) => cancelPerpOrder(order.id),
    onSuccess: () => {
      Toast.show({ content: t('spot.cancelled') });
      refreshPerp(queryClient);
    },
    onError: (cause) => Toast.show({ content: errorMessage(cause) }),
  });
  if (orders.isPending) return <SkeletonRows count={2} height={88} />;
  if (orders.isError) return <ErrorState onRetry={() => void orders.refetch()} />;
  const items = orders.data.items.filter(isResting);
  if (items.length === 0) return <EmptyState title={t('spot.noOpenOrders')} />;
  return (
    <ul className="spot-orders" data-testid="perp-open-orders">
      {items.map((order) => (
        <PerpOrderRow
          key={order.id}
          order={order}
          actions={
            <button
              type="button"
              className="btn btn--outline spot-order__btn"
              disabled={cancel.isPending && cancel.variables?.id === order.id}
              data-testid="perp-cancel"
              onClick={() => cancel.mutate(order)}
            >
              {t('spot.cancelOrder')}
            </button>
          }
        />
      ))}
    </ul>
  );
}

function PerpOrderHistory() {
  const { t } = useTranslation();
  const orders = usePerpOrders('history', '', true);
  if (orders.isPending) return <SkeletonRows count={3} height={88} />;
  if (orders.isError) return <ErrorState onRetry={() => void orders.refetch()} />;
  if (orders.data.items.length === 0) return <EmptyState title={t('spot.noHistory')} />;
  return (
    <ul className="spot-orders" data-testid="perp-history">
      {orders.data.items.map((order) => (
        <PerpOrderRow key={order.id} order={order} />
      ))}
    </ul>
  );
}

/** Closed positions: side, largest size, entry and exit averages, P&L after fees and funding, why it ended. */
function ClosedPositions() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const timeZone = useDeploymentTimeZone();
  const closed = useClosedPositions(true);
  const num = (v: string) => formatNumber(v, { locale: language, digits: exactDigits(v) });
  const money = (v: string) => `${formatNumber(v, { locale: language, digits: usdt })} USDT`;
  if (closed.isPending) return <SkeletonRows count={3} height={88} />;
  if (closed.isError) return <ErrorState onRetry={() => void closed.refetch()} />;
  if (closed.data.items.length === 0) return <EmptyState title={t('perp.noClosedPositions')} />;
  return (
    <ul className="spot-orders" data-testid="closed-positions">
      {closed.data.items.map((p) => (
        <li key={p.id} className="spot-order">
          <div className="spot-order__top">
            <span className={`side-tag side-tag--${p.side === 'long' ? 'buy' : 'sell'}`}>{t(`perp.${p.side}`)}</span>
            <b>{p.symbol}</b>
            <span className="status-chip">{t(`perp.positionEnd.${p.reason}`)}</span>
          </div>
          <dl className="spot-order__grid tabular">
            <div>
              <dt>{t('perp.size')}</dt>
              <dd>{num(p.size)}</dd>
            </div>
            <div>
              <dt>{t('perp.netPnl')}</dt>
              <dd className={`num--${toneOf(p.netPnl)}`}>
                {signOfDecimal(p.netPnl) > 0 ? '+' : ''}
                {money(p.netPnl)}
              </dd>
            </div>
            <div>
              <dt>{t('perp.entryPrice')}</dt>
              <dd>{num(p.entryPrice)}</dd>
            </div>
            <div>
              <dt>{t('perp.exitPrice')}</dt>
              <dd>{num(p.exitPrice)}</dd>
            </div>
            <div>
              <dt>{t('perp.realizedPnl')}</dt>
              <dd>{money(p.realizedPnl)}</dd>
            </div>
            <div>
              <dt>{t('perp.fees')}</dt>
              <dd>{money(p.fees)}</dd>
            </div>
            <div>
              <dt>{t('perp.funding')}</dt>
              <dd>{money(p.funding)}</dd>
            </div>
          </dl>
          <div className="spot-order__foot">
            <span className="spot-order__time">{formatDateTime(p.closedAt, timeZone)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The history tab: past orders, or closed positions. */
function History() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'orders' | 'positions'>('orders');
  return (
    <>
      <Segmented
        value={kind}
        onChange={setKind}
        label={t('perp.tabs.history')}
        testId="history-kind"
        options={[
          { value: 'orders', label: t('perp.historyKind.orders') },
          { value: 'positions', label: t('perp.historyKind.positions') },
        ]}
      />
      {kind === 'orders' ? <PerpOrderHistory /> : <ClosedPositions />}
    </>
  );
}

function Records() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const timeZone = useDeploymentTimeZone();
  const [kind, setKind] = useState<'funding' | 'liquidation'>('funding');
  const funding = usePerpRecords<PerpFundingView>('funding', kind === 'funding');
  const liquidations = usePerpRecords<PerpLiquidationView>('liquidation', kind === 'liquidation');
  const query = kind === 'funding' ? funding : liquidations;
  const num = (v: string) => formatNumber(v, { locale: language, digits: exactDigits(v) });
  let body: ReactNode;
  if (query.isPending) body = <SkeletonRows count={2} height={72} />;
  else if (query.isError) body = <ErrorState onRetry={() => void query.refetch()} />;
  else if (query.data.items.length === 0)
    body = <EmptyState title={t(kind === 'funding' ? 'perp.noFunding' : 'perp.noLiquidations')} />;
  else if (kind === 'funding')
    body = (
      <ul className="spot-orders" data-testid="funding-records">
        {(funding.data?.items ?? []).map((record) => (
          <li key={record.id} className="spot-order">
            <div className="spot-order__top">
              <b>{record.symbol}</b>
              <span className={`num--${toneOf(record.amount)} tabular`}>
                {signOfDecimal(record.amount) > 0 ? '+' : ''}
                {formatNumber(record.amount, { locale: language, digits: usdt })} USDT
              </span>
            </div>
            <dl className="spot-order__grid tabular">
              <div>
                <dt>{t('perp.fundingRate')}</dt>
                <dd>{fractionAsPercent(record.rate, 4) ?? '--'}%</dd>
              </div>
              <div>
                <dt>{t('perp.size')}</dt>
                <dd>
                  {t(`perp.${record.side}`)} {num(record.size)}
                </dd>
              </div>
            </dl>
            <div className="spot-order__foot">
              <span className="spot-order__time">{formatDateTime(record.at, timeZone)}</span>
            </div>
          </li>
        ))}
      </ul>
    );
  else
    body = (
      <ul className="spot-orders" data-testid="liquidation-records">
        {(liquidations.data?.items ?? []).map((record) => (
          <li key={record.id} className="spot-order">
            <div className="spot-order__top">
              <span className={`side-tag side-tag--${record.side === 'long' ? 'buy' : 'sell'}`}>
                {t(`perp.${record.side}`)}
              </span>
              <b>{record.symbol}</b>
              <span className="status-chip">{t(`perp.reason.${record.reason}`)}</span>
            </div>
            <dl className="spot-order__grid tabular">
              <div>
                <dt>{t('perp.size')}</dt>
                <dd>{num(record.size)}</dd>
              </div>
              <div>
                <dt>{t('perp.markPrice')}</dt>
                <dd>{num(record.markPrice)}</dd>
              </div>
              <div>
                <dt>{t('perp.bankruptcyPrice')}</dt>
                <dd>{num(record.bankruptcyPrice)}</dd>
              </div>
              <div>
                <dt>{t(record.reason === 'liquidation' ? 'perp.marginLost' : 'perp.realized')}</dt>
                <dd>{formatNumber(record.amount, { locale: language, digits: usdt })} USDT</dd>
              </div>
            </dl>
            <p className="section-hint">{t(`perp.reasonHint.${record.reason}`)}</p>
            <div className="spot-order__foot">
              <span className="spot-order__time">{formatDateTime(record.at, timeZone)}</span>
            </div>
          </li>
        ))}
      </ul>
    );
  return (
    <>
      <Segmented
        value={kind}
        onChange={setKind}
        label={t('perp.records')}
        testId="record-kind"
        options={[
          { value: 'funding', label: t('perp.funding') },
          { value: 'liquidation', label: t('perp.liquidations') },
        ]}
      />
      {body}
    </>
  );
}

// --- the screen ------------------------------------------------------------------------------------

type AccountTab = 'positions' | 'open' | 'history' | 'records';

/** The contract trading screen inside the Trade tab (its Crypto | Contracts | Stocks switch on top). */
export function PerpTradingScreen({ top }: { top?: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const symbol = pairSymbolOf(params.get('symbol')) || readLastContract();
  const contracts = useContracts();
  const positions = usePositions(Boolean(session.token));
  const [isSheetOpen, setSheetOpen] = useState(false);
  const [tab, setTab] = useState<AccountTab>('positions');
  const [picked, setPicked] = useState<{ price: string; at: number } | null>(null);
  const tabsRef = useRef<HTMLDivElement>(null);
  usePerpAccountLive(session.token);
  useEffect(() => storeLastContract(symbol), [symbol]);

  const pick = (next: string) => {
    setSheetOpen(false);
    const copy = new URLSearchParams(params);
    copy.set('symbol', next);
    setParams(copy, { replace: true });
    setPicked(null);
  };

  const items = contracts.data ?? [];
  const contract = items.find((c) => pairSymbolOf(c.symbol) === symbol) ?? items[0];
  const available = positions.data?.available;
  let content: ReactNode;
  if (contracts.isPending) content = <SkeletonRows count={4} height={80} />;
  else if (contracts.isError) content = <ErrorState onRetry={() => void contracts.refetch()} />;
  else if (!contract) content = <EmptyState title={t('perp.noContracts')} />;
  else
    content = (
      <>
        <ContractHeader contract={contract} onPick={() => setSheetOpen(true)} />
        <MarketPanels symbol={contract.symbol} onPrice={(price) => setPicked({ price, at: Date.now() })} />
        <PerpOrderForm
          key={contract.symbol}
          contract={contract}
          picked={picked}
          available={session.token ? (available ?? undefined) : undefined}
          hasPosition={Boolean(positions.data?.positions.some((p) => pairSymbolOf(p.symbol) === contract.symbol))}
          onPlaced={(order) => {
            // A resting order is found under Orders; a filled one changed a position.
            setTab(isResting(order) ? 'open' : 'positions');
            setTimeout(() => tabsRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }), 50);
          }}
        />
        {session.token && (
          <section className="spot-account" ref={tabsRef} aria-label={t('perp.myPositions')}>
            <Segmented
              value={tab}
              onChange={setTab}
              label={t('perp.myPositions')}
              testId="perp-tabs"
              options={[
                { value: 'positions', label: t('perp.tabs.positions') },
                { value: 'open', label: t('perp.tabs.open') },
                { value: 'history', label: t('perp.tabs.history') },
                { value: 'records', label: t('perp.tabs.records') },
              ]}
            />
            {tab === 'positions' ? (
              <Positions contracts={items} available={available} />
            ) : tab === 'open' ? (
              <OpenPerpOrders />
            ) : tab === 'history' ? (
              <History />
            ) : (
              <Records />
            )}
          </section>
        )}
      </>
    );
  return (
    <div className="spot perp" data-testid="perp-screen">
      {top}
      {content}
      <ContractSheet
        isOpen={isSheetOpen}
        contracts={items}
        current={contract?.symbol ?? ''}
        onPick={pick}
        onClose={() => setSheetOpen(false)}
      />
    </div>
  );
}
