// Shapes of the crypto exchange's calls (SPEC §7: /coin/order/*, /coin/assets, /coin/transfer,
// /coin/collect/*, and the crypto convert of exchange/cryptoConvert). The platform is the exchange: one
// order book per pair against USDT, price-time priority, a disclosed liquidity account per pair.
// Holds: prices, quantities and amounts as decimal strings (a coin's own scale, up to 8 decimals); times
// as epoch milliseconds.
// Must not: compute fees or fills (the server answers them; the app shows what it was told).

import { z } from 'zod';
import { formBoolean, isPlainText, pageQuery, pin, recordId, text } from './fields.ts';

/** limit, market (walks the book up to the pair's price protection), stop_limit (rests untriggered). */
export const SPOT_ORDER_TYPES = ['limit', 'market', 'stop_limit'] as const;
export type SpotOrderType = (typeof SPOT_ORDER_TYPES)[number];
/** gtc rests; ioc fills what it can now and closes the rest; fok fills whole now or not at all. */
export const SPOT_TIME_IN_FORCE = ['gtc', 'ioc', 'fok'] as const;
export type SpotTimeInForce = (typeof SPOT_TIME_IN_FORCE)[number];

/**
 * untriggered: a stop-limit waiting for its stop price; pending: resting, nothing filled; partial: resting
 * or closed with part filled; completed: all filled; cancelled: by the customer (or self-trade
 * prevention); closed: the engine ended it (ioc / market remainder, fok not fillable, price protection).
 */
export const SPOT_ORDER_STATUSES = ['untriggered', 'pending', 'partial', 'completed', 'cancelled', 'closed'] as const;
export type SpotOrderStatus = (typeof SPOT_ORDER_STATUSES)[number];

/** The wallets a customer's crypto sits in: spot (trading, deposits, withdrawals) and contract (perpetuals). */
export const COIN_WALLETS = ['spot', 'contract'] as const;
export type CoinWallet = (typeof COIN_WALLETS)[number];

/** A decimal as typed: digits with at most one point, at most 30 characters (the server checks scale and tick). */
const decimalText = (missing: 'quantity_required' | 'field_required' = 'field_required') =>
  z
    .string({ error: (issue) => (issue.input === undefined ? missing : 'field_invalid') })
    .trim()
    .min(1, { error: missing })
    .max(30, { error: 'field_invalid' })
    .regex(/^\d+(\.\d+)?$/, { error: 'field_invalid' });

/** A pair by its symbol: `BTCUSDT`, `BTC-USDT`, `BTC/USDT` or the catalogue id (`CRYPTO:BTCUSDT`). */
export const pairSymbol = () => text(40);

/**
 * POST /coin/order/add. `quantity` is in the base coin; a market buy may instead give `quoteAmount`
 * (USDT to spend, as Binance's quoteOrderQty). A limit or stop-limit needs `price`; a stop-limit also
 * `stopPrice`. A market order takes neither price (field_invalid).
 */
export const placeSpotOrderBody = z.object({
  symbol: pairSymbol(),
  side: z.enum(['buy', 'sell'], { error: 'field_invalid' }),
  type: z.enum(SPOT_ORDER_TYPES, { error: 'field_invalid' }).default('limit'),
  price: decimalText().optional(),
  stopPrice: decimalText().optional(),
  quantity: decimalText('quantity_required').optional(),
  quoteAmount: decimalText().optional(),
  timeInForce: z.enum(SPOT_TIME_IN_FORCE, { error: 'field_invalid' }).default('gtc'),
  /** Refused (post_only_would_take) rather than taking liquidity. Limit orders only. */
  postOnly: formBoolean(false),
  /**
   * The 6-digit transaction password, as for stock orders (UI.md's confirmation sheet). Optional here so
   * a customer without one is told to set it (trade_password_not_set). API-key orders do not send it.
   */
  password: pin().optional(),
  /** Idempotency key chosen by the client: a retry with the same key and body answers the first result. */
  clientOrderId: z.string().trim().min(8).max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
});
export type PlaceSpotOrderInput = z.input<typeof placeSpotOrderBody>;
export type PlaceSpotOrder = z.output<typeof placeSpotOrderBody>;

/** POST /coin/order/preview: what the order would cost, with the fee rates, before confirming. */
export const previewSpotOrderBody = placeSpotOrderBody.omit({ password: true, clientOrderId: true });
export type PreviewSpotOrderInput = z.input<typeof previewSpotOrderBody>;

export const spotOrderPreviewView = z.object({
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  type: z.enum(SPOT_ORDER_TYPES),
  /** The limit price, or for a market order the price it would reach on the book now. */
  price: z.string(),
  quantity: z.string(),
  /** price × quantity, in the quote coin. */
  amount: z.string(),
  /** The fee if the whole order takes liquidity (the higher of the two rates), in what it is charged in. */
  fee: z.string(),
  feeAsset: z.string(),
  makerFeeBps: z.number().int(),
  takerFeeBps: z.number().int(),
  /** A buy: amount + fee (quote coin). A sell: what the customer receives after the fee (quote coin). */
  total: z.string(),
  /** Available in the spot wallet: the quote coin for a buy, the base coin for a sell. */
  available: z.string(),
  availableAsset: z.string(),
});
export type SpotOrderPreviewView = z.infer<typeof spotOrderPreviewView>;

export const spotOrderView = z.object({
  id: z.number().int(),
  clientOrderId: z.string().nullable(),
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  side: z.enum(['buy', 'sell']),
  type: z.enum(SPOT_ORDER_TYPES),
  timeInForce: z.enum(SPOT_TIME_IN_FORCE),
  postOnly: z.boolean(),
  /** Limit price ("" for a market order). */
  price: z.string(),
  stopPrice: z.string().nullable(),
  quantity: z.string(),
  filledQuantity: z.string(),
  avgPrice: z.string().nullable(),
  /** Quote coin traded so far (Σ price × quantity of the fills). */
  filledAmount: z.string(),
  fee: z.string(),
  feeAsset: z.string(),
  status: z.enum(SPOT_ORDER_STATUSES),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type SpotOrderView = z.infer<typeof spotOrderView>;

/** What placing, amending or cancelling answers: the order as it stands after. */
export const spotOrderResult = z.object({ order: spotOrderView });
export type SpotOrderResult = z.infer<typeof spotOrderResult>;

/** POST /coin/order/list. */
export const spotOrderListBody = pageQuery.extend({
  symbol: pairSymbol().optional(),
  status: z.enum(['open', 'history', 'all']).default('all'),
});
export type SpotOrderListInput = z.input<typeof spotOrderListBody>;

/** POST /coin/order/query and /coin/order/close (cancel): one of the customer's orders. */
export const spotOrderIdBody = z.object({ id: recordId() });
export type SpotOrderIdInput = z.input<typeof spotOrderIdBody>;

/** POST /coin/order/amend: lower the quantity of a resting order (it keeps its place in the queue). */
export const amendSpotOrderBody = z.object({ id: recordId(), quantity: decimalText('quantity_required') });
export type AmendSpotOrderInput = z.input<typeof amendSpotOrderBody>;

/** POST /coin/order/trades: the customer's fills. */
export const spotTradeListBody = pageQuery.extend({ symbol: pairSymbol().optional(), orderId: recordId().optional() });
export type SpotTradeListInput = z.input<typeof spotTradeListBody>;

export const spotTradeView = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  price: z.string(),
  quantity: z.string(),
  /** price × quantity, quote coin. */
  amount: z.string(),
  fee: z.string(),
  feeAsset: z.string(),
  liquidity: z.enum(['maker', 'taker']),
  time: z.number().int(),
});
export type SpotTradeView = z.infer<typeof spotTradeView>;

/** One pair as /coin/infos describes it (Binance's exchangeInfo filters, in decimals). */
export const spotPairView = z.object({
  id: z.string(),
  symbol: z.string(),
  name: z.string(),
  base: z.string(),
  quote: z.string(),
  tickSize: z.string(),
  lotSize: z.string(),
  minQuantity: z.string(),
  maxQuantity: z.string(),
  /** Smallest price × quantity accepted, in the quote coin. */
  minNotional: z.string(),
  makerFeeBps: z.number().int(),
  takerFeeBps: z.number().int(),
  /** How far a market order may walk the book from the best price, in basis points. */
  marketProtectionBps: z.number().int(),
  /** Registered and trading on the platform's book. */
  trading: z.boolean(),
  listed: z.boolean(),
  /** The disclosed liquidity account quoting this pair. */
  liquidityAccount: z.string(),
  /** Signed in: on the customer's favourites. */
  favourite: z.boolean(),
});
export type SpotPairView = z.infer<typeof spotPairView>;

/** POST /coin/collect/add and /coin/collect/del; /coin/collect/list answers the favourite pairs' tickers. */
export const coinCollectBody = z.object({ symbol: pairSymbol() });
export type CoinCollectInput = z.input<typeof coinCollectBody>;

/** One coin in one wallet, with its value in USDT at the reference price. */
export const coinBalanceView = z.object({
  wallet: z.enum(COIN_WALLETS),
  asset: z.string(),
  balance: z.string(),
  /** In open orders, withdrawals under way and other holds. */
  held: z.string(),
  available: z.string(),
  /** balance valued at the pair's reference price (USDT itself at 1), two decimals. */
  valueUsdt: z.string(),
});
export type CoinBalanceView = z.infer<typeof coinBalanceView>;

/** POST /coin/assets: both wallets, every coin with a balance (USDT always listed), and totals. */
export const coinAssetsView = z.object({
  spot: z.array(coinBalanceView),
  contract: z.array(coinBalanceView),
  totalUsdt: z.string(),
  spotUsdt: z.string(),
  contractUsdt: z.string(),
  /** Paper mode: virtual money. */
  virtual: z.boolean(),
});
export type CoinAssetsView = z.infer<typeof coinAssetsView>;

/** POST /coin/transfer: between the customer's own spot and contract wallets, free and instant (SPEC §9). */
export const coinTransferBody = z.object({
  asset: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{2,12}$/, { error: 'field_invalid' }),
  amount: decimalText(),
  from: z.enum(COIN_WALLETS, { error: 'field_invalid' }),
  to: z.enum(COIN_WALLETS, { error: 'field_invalid' }),
  /** Idempotency key: a retry with the same key answers the first result. */
  clientId: z.string().trim().min(8).max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
});
export type CoinTransferInput = z.input<typeof coinTransferBody>;

export const coinTransferView = z.object({
  /** The ledger transfer's id (the funds record links to it). */
  id: z.string(),
  asset: z.string(),
  amount: z.string(),
  from: z.enum(COIN_WALLETS),
  to: z.enum(COIN_WALLETS),
  fee: z.string(),
  at: z.number().int(),
});
export type CoinTransferView = z.infer<typeof coinTransferView>;

/**
 * GET /admin/spot/liquidity: each pair's disclosed liquidity account as the staff console shows it
 * (read-only): its coin and USDT balances with what its quotes hold, and how many orders it has open.
 */
export const spotLiquidityView = z.object({
  symbol: z.string(),
  liquidityAccount: z.string(),
  base: z.string(),
  quote: z.string(),
  baseBalance: z.string(),
  baseHeld: z.string(),
  quoteBalance: z.string(),
  quoteHeld: z.string(),
  openOrders: z.number().int(),
  bestBid: z.string().nullable(),
  bestAsk: z.string().nullable(),
  /** The simulator's price the ladder is quoted around. */
  referencePrice: z.string().nullable(),
});
export type SpotLiquidityView = z.infer<typeof spotLiquidityView>;
