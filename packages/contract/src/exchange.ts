// Shapes of currency exchange (SPEC's POST /user/exchange, PRODUCT.md "Currency exchange"): a quote at
// the simulator's rate with the spread shown and a short validity, then its acceptance.
// Holds: amounts and rates are decimal strings; times are epoch milliseconds.
// Must not: compute rates (the server quotes; the app only shows what it was quoted).

import { z } from 'zod';
import { recordId } from './fields.ts';

/** The currencies the exchange desk trades, each against USD. */
export const EXCHANGE_CURRENCIES = ['USD', 'BRL', 'INR'] as const;
export type ExchangeCurrency = (typeof EXCHANGE_CURRENCIES)[number];

/** A decimal amount of a currency as typed: up to 12 whole digits and 2 decimals. */
const amountText = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, { error: 'invalid_amount' });

/** POST /user/exchange: `quote` asks for a quote; `accept` takes one before it expires (idempotent). */
export const exchangeBody = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('quote'),
    from: z.enum(EXCHANGE_CURRENCIES),
    to: z.enum(EXCHANGE_CURRENCIES),
    /** What the customer pays, in `from`. */
    amount: amountText,
  }),
  z.object({ action: z.literal('accept'), quoteId: recordId() }),
]);
export type ExchangeInput = z.input<typeof exchangeBody>;

export const EXCHANGE_QUOTE_STATUSES = ['quoted', 'accepted', 'expired'] as const;

export const exchangeQuoteView = z.object({
  id: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** Paid, in `from`. */
  amount: z.string(),
  /** Received, in `to`, after the spread (rounded down to the currency's cents). */
  receive: z.string(),
  /** The market's mid rate: units of `to` per one `from`. */
  midRate: z.string(),
  /** The rate the customer gets after the spread: units of `to` per one `from`. */
  rate: z.string(),
  /** The platform's spread in basis points of the amount (shown before accepting). */
  spreadBps: z.number().int(),
  /** What the spread costs the customer, in `to`. */
  spreadCost: z.string(),
  status: z.enum(EXCHANGE_QUOTE_STATUSES),
  createdAt: z.number().int(),
  expiresAt: z.number().int(),
  acceptedAt: z.number().int().nullable(),
  /** The wallet whose balances it moves (the stock wallet holds fiat cash). */
  wallet: z.string(),
  /** Paper mode: virtual money. */
  virtual: z.boolean(),
});
export type ExchangeQuoteView = z.infer<typeof exchangeQuoteView>;

export const exchangeRateView = z.object({
  from: z.string(),
  to: z.string(),
  midRate: z.string(),
  rate: z.string(),
  spreadBps: z.number().int(),
  /** Epoch ms of the market price it comes from. */
  at: z.number().int(),
});
export type ExchangeRateView = z.infer<typeof exchangeRateView>;

export const exchangeRatesView = z.object({
  rates: z.array(exchangeRateView),
  /** How long a quote stays valid, in seconds. */
  quoteValiditySec: z.number().int(),
  minAmount: z.string(),
});
export type ExchangeRatesView = z.infer<typeof exchangeRatesView>;

// --- crypto convert (exchange/cryptoConvert): the same desk for coins, in the spot wallet ------------------

/** A coin amount as typed: up to 20 whole digits and 18 decimals (the server checks the coin's own scale). */
const coinAmountText = z
  .string()
  .trim()
  .regex(/^\d{1,20}(\.\d{1,18})?$/, { error: 'invalid_amount' });

/** A coin's code: USDT or a catalogue coin (the server refuses others as exchange_pair_unsupported). */
const coinCode = z
  .string()
  .trim()
  .regex(/^[A-Z0-9]{2,12}$/, { error: 'field_invalid' });

/**
 * POST /coin/convert: `quote` asks for a quote between any two of USDT and the catalogue's coins (priced
 * from the coins' USDT pairs); `accept` takes one before it expires (idempotent). Answers exchangeQuoteView
 * with `wallet` "spot". A coin quote can also be accepted through POST /user/exchange (one quote table).
 */
export const coinConvertBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('quote'), from: coinCode, to: coinCode, amount: coinAmountText }),
  z.object({ action: z.literal('accept'), quoteId: recordId() }),
]);
export type CoinConvertInput = z.input<typeof coinConvertBody>;

/** GET /coin/convert/rates: every coin against USDT both ways, and the coins that can be converted. */
export const coinConvertRatesView = z.object({
  rates: z.array(exchangeRateView),
  /** USDT first, then the catalogue's coins, in its order. */
  assets: z.array(z.string()),
  quoteValiditySec: z.number().int(),
  /** The smallest quote, as its value in USDT at the market rate. */
  minValueUsdt: z.string(),
});
export type CoinConvertRatesView = z.infer<typeof coinConvertRatesView>;
