// Currency exchange (POST /user/exchange) and crypto convert (POST /coin/convert): a quote at the
// simulator's rate less the spread, valid for QUOTE_VALIDITY_MS, then accepted as ONE engine `convert`
// through a platform exchange account (`exchange:fx` for fiat in the stock wallet, `exchange:crypto` for
// coins in the spot wallet; both legs or neither), or expired. One quote table and one accept for both. Life cycle quoted → accepted | expired (exchange_quote_transitions).
// Must hold: acceptance moves exactly the quoted amounts; a retry of an accepted quote moves nothing again;
// an expired quote moves nothing. Must not: read a price from anywhere but the market data (rule 1).

import type { CoinConvertRatesView, ExchangeQuoteView, ExchangeRatesView, ExchangeRateView } from '@bourse/contract';
import { EXCHANGE_CURRENCIES } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { convertTransferIds } from '@bourse/engine';
import { findInstrument, ticksToDecimal } from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { coins, isCoin, USDT, usdtPrice } from '../markets/reference-prices.ts';
import type { MarketData } from '../markets/service.ts';
import { crossFigures, formatRate, minAmountOf, quoteFigures, rateE8Of } from './rates.ts';
import * as repo from './repo.ts';

/** How long a quote can be accepted. */
export const QUOTE_VALIDITY_MS = 10_000;
/** The platform's spread, in basis points of the amount: shown on every quote. */
export const EXCHANGE_SPREAD_BPS = 50;
/** The smallest amount quoted, in the currency paid. */
export const EXCHANGE_MIN_AMOUNT = '1.00';
/** Fiat cash lives in the stock wallet (paper grants, stock orders). */
export const EXCHANGE_WALLET = 'stock';
/** The platform account both legs go through. */
export const EXCHANGE_ACCOUNT = 'exchange:fx';

/** Crypto convert: coins live in the spot wallet and go through their own platform account. */
export const COIN_WALLET = 'spot';
export const COIN_ACCOUNT = 'exchange:crypto';
/** The crypto desk's spread, in basis points of the amount: shown on every quote. */
export const COIN_SPREAD_BPS = 20;
/** The smallest coin quote, by its value in USDT at the market rate. */
export const COIN_MIN_VALUE_USDT = '1';
/** A coin received is rounded down to this many decimals (or its own scale if fewer). */
const COIN_RECEIVE_DECIMALS = 8;

/** The market instrument that prices one US dollar in each other currency. */
const USD_PAIRS: Readonly<Record<string, string>> = { BRL: 'FX:USDBRL', INR: 'FX:USDINR' };

export class Exchange {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #clock: Clock;
  readonly #virtual: boolean;
  constructor(deps: { db: Db; engine: TradingEngine; market: MarketData; clock: Clock; virtual: boolean }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#market = deps.market;
    this.#clock = deps.clock;
    this.#virtual = deps.virtual;
  }

  #scale(asset: string): number {
    const scale = this.#engine.state.asset(asset)?.scale;
    if (scale === undefined) throw new AppError('exchange_pair_unsupported');
    return scale;
  }

  /** The other currency of a pair with USD, and the market's price of one USD in it. */
  #usdRate(from: string, to: string): { other: string; usdRateE8: bigint; at: number } {
    if (from === to) throw new AppError('same_asset');
    const other = from === 'USD' ? to : to === 'USD' ? from : null;
    const instrumentId = other && USD_PAIRS[other];
    const instrument = instrumentId ? findInstrument(instrumentId) : undefined;
    if (!other || !instrument) throw new AppError('exchange_pair_unsupported');
    const last = this.#market.lastTicks(instrument.id);
    if (!last || last.lastTicks <= 0) throw new AppError('exchange_rate_unavailable');
    const quote = this.#market.quote(instrument);
    return {
      other,
      usdRateE8: rateE8Of(ticksToDecimal(last.lastTicks, instrument.tickSize)),
      at: quote.time,
    };
  }

  rates(): ExchangeRatesView {
    const rates: ExchangeRateView[] = [];
    for (const other of EXCHANGE_CURRENCIES.filter((c) => c !== 'USD')) {
      for (const [from, to] of [
        ['USD', other],
        [other, 'USD'],
      ] as const) {
        const { usdRateE8, at } = this.#usdRate(from, to);
        const f = quoteFigures({
          amountMinor: 1n,
          fromScale: 0,
          toScale: 0,
          usdRateE8,
          fromIsUsd: from === 'USD',
          spreadBps: EXCHANGE_SPREAD_BPS,
        });
        rates.push({
          from,
          to,
          midRate: formatRate(f.midRateE8),
          rate: formatRate(f.rateE8),
          spreadBps: EXCHANGE_SPREAD_BPS,
          at,
        });
      }
    }
    return { rates, quoteValiditySec: QUOTE_VALIDITY_MS / 1000, minAmount: EXCHANGE_MIN_AMOUNT };
  }

  async quote(userId: number, body: { from: string; to: string; amount: string }): Promise<ExchangeQuoteView> {
    const { usdRateE8 } = this.#usdRate(body.from, body.to);
    const fromScale = this.#scale(body.from);
    const toScale = this.#scale(body.to);
    const parsed = tryParseDecimal(body.amount, fromScale);
    if (!parsed.ok || parsed.minor <= 0n) throw new AppError('invalid_amount', { amount: 'invalid_amount' });
    const min = tryParseDecimal(EXCHANGE_MIN_AMOUNT, fromScale);
    if (min.ok && parsed.minor < min.minor) {
      throw new AppError('exchange_amount_too_small', { amount: 'exchange_amount_too_small' }, () => ({
        min: `${EXCHANGE_MIN_AMOUNT} ${body.from}`,
      }));
    }
    const f = quoteFigures({
      amountMinor: parsed.minor,
      fromScale,
      toScale,
      usdRateE8,
      fromIsUsd: body.from === 'USD',
      spreadBps: EXCHANGE_SPREAD_BPS,
    });
    if (f.receiveMinor <= 0n) throw new AppError('exchange_amount_too_small');
    const now = this.#clock.now();
    const row = {
      user_id: userId,
      wallet: EXCHANGE_WALLET,
      from_asset: body.from,
      to_asset: body.to,
      amount: formatDecimal(parsed.minor, fromScale),
      receive: formatDecimal(f.receiveMinor, toScale),
      spread_cost: formatDecimal(f.spreadCostMinor, toScale),
      mid_rate: formatRate(f.midRateE8),
      rate: formatRate(f.rateE8),
      spread_bps: EXCHANGE_SPREAD_BPS,
      created_at: now,
      expires_at: now + QUOTE_VALIDITY_MS,
    };
    const id = await repo.insertQuote(this.#db, row);
    return this.#view({ ...row, id, status: 'quoted', decided_at: null });
  }

  /** A coin's reference price in USDT, 1e-8 units; refused when either coin is not on the desk. */
  #coinPriceE8(asset: string): { priceE8: bigint; at: number } {
    if (!isCoin(asset)) throw new AppError('exchange_pair_unsupported');
    const price = usdtPrice(this.#market, asset);
    if (!price) throw new AppError('exchange_rate_unavailable');
    return { priceE8: rateE8Of(price.price), at: price.at };
  }

  coinRates(): CoinConvertRatesView {
    const rates: ExchangeRateView[] = [];
    const usdt = this.#coinPriceE8(USDT);
    for (const coin of coins().filter((c) => c !== USDT)) {
      const { priceE8, at } = this.#coinPriceE8(coin);
      for (const [from, to, fromP, toP] of [
        [coin, USDT, priceE8, usdt.priceE8],
        [USDT, coin, usdt.priceE8, priceE8],
      ] as const) {
        const f = crossFigures({
          amountMinor: 1n,
          fromScale: 0,
          toScale: 0,
          fromPriceE8: fromP,
          toPriceE8: toP,
          spreadBps: COIN_SPREAD_BPS,
          receiveDecimals: 0,
        });
        rates.push({ from, to, midRate: f.midRate, rate: f.rate, spreadBps: COIN_SPREAD_BPS, at });
      }
    }
    return {
      rates,
      assets: coins(),
      quoteValiditySec: QUOTE_VALIDITY_MS / 1000,
      minValueUsdt: COIN_MIN_VALUE_USDT,
    };
  }

  /** A crypto convert quote: any two of USDT and the catalogue's coins, priced through their USDT pairs. */
  async coinQuote(userId: number, body: { from: string; to: string; amount: string }): Promise<ExchangeQuoteView> {
    if (body.from === body.to) throw new AppError('same_asset');
    const from = this.#coinPriceE8(body.from);
    const to = this.#coinPriceE8(body.to);
    const fromScale = this.#scale(body.from);
    const toScale = this.#scale(body.to);
    const usdtScale = this.#scale(USDT);
    const parsed = tryParseDecimal(body.amount, fromScale);
    if (!parsed.ok || parsed.minor <= 0n) throw new AppError('invalid_amount', { amount: 'invalid_amount' });
    const minValue = tryParseDecimal(COIN_MIN_VALUE_USDT, usdtScale);
    const value = (parsed.minor * from.priceE8 * 10n ** BigInt(usdtScale)) / (10n ** 8n * 10n ** BigInt(fromScale));
    if (!minValue.ok || value < minValue.minor) {
      const decimals = Math.min(fromScale, COIN_RECEIVE_DECIMALS);
      const min = minAmountOf(minValue.ok ? minValue.minor : 0n, usdtScale, from.priceE8, decimals);
      throw new AppError('exchange_amount_too_small', { amount: 'exchange_amount_too_small' }, () => ({
        min: `${min} ${body.from}`,
      }));
    }
    const f = crossFigures({
      amountMinor: parsed.minor,
      fromScale,
      toScale,
      fromPriceE8: from.priceE8,
      toPriceE8: to.priceE8,
      spreadBps: COIN_SPREAD_BPS,
      receiveDecimals: COIN_RECEIVE_DECIMALS,
    });
    if (f.receiveMinor <= 0n) throw new AppError('exchange_amount_too_small');
    const now = this.#clock.now();
    const row = {
      user_id: userId,
      wallet: COIN_WALLET,
      from_asset: body.from,
      to_asset: body.to,
      amount: formatDecimal(parsed.minor, fromScale),
      receive: formatDecimal(f.receiveMinor, toScale),
      spread_cost: formatDecimal(f.spreadCostMinor, toScale),
      mid_rate: f.midRate,
      rate: f.rate,
      spread_bps: COIN_SPREAD_BPS,
      created_at: now,
      expires_at: now + QUOTE_VALIDITY_MS,
    };
    const id = await repo.insertQuote(this.#db, row);
    return this.#view({ ...row, id, status: 'quoted', decided_at: null });
  }

  /**
   * Takes a quote: one `convert` of exactly its amounts. A quote already accepted answers as it stands
   * (a retry after a lost answer); one past its time is expired and refused, unless its convert did post
   * (an answer lost, then retried late), which the ledger read table tells.
   */
  async accept(userId: number, quoteId: number): Promise<ExchangeQuoteView> {
    const quote = await repo.findQuote(this.#db, quoteId, userId);
    if (!quote) throw new AppError('exchange_quote_not_found');
    if (quote.status === 'accepted') return this.#view(quote);
    const commandId = `exchange:${quote.id}`;
    const now = this.#clock.now();
    if (quote.status === 'expired' || now > quote.expires_at) {
      if (await repo.transferExists(this.#db, convertTransferIds(commandId).pay)) return this.#markAccepted(quote, now);
      if (quote.status === 'quoted') await this.#move(quote, 'expired', now);
      throw new AppError('exchange_quote_expired');
    }
    // Short funds are refused before the command: the engine's window would answer a retry of this quote
    // (after a deposit, still within its time) with a remembered refusal. The engine checks again.
    const paid = tryParseDecimal(quote.amount, this.#scale(quote.from_asset));
    const wallet = quote.wallet === COIN_WALLET ? COIN_WALLET : EXCHANGE_WALLET;
    const available = this.#engine.state.balance(String(userId), wallet, quote.from_asset).available;
    if (!paid.ok || available < paid.minor) throw new AppError('insufficient_balance');
    const result = await this.#engine.submit({
      type: 'convert',
      id: commandId,
      userId: String(userId),
      wallet,
      asset: quote.from_asset,
      amount: quote.amount,
      toAsset: quote.to_asset,
      toAmount: quote.receive,
      via: wallet === COIN_WALLET ? COIN_ACCOUNT : EXCHANGE_ACCOUNT,
      link: `exchange_quote:${quote.id}`,
    });
    if (!result.ok) throw new AppError(result.code);
    return this.#markAccepted(quote, now);
  }

  async #markAccepted(quote: repo.QuoteRow, at: number): Promise<ExchangeQuoteView> {
    await this.#move(quote, 'accepted', at);
    return this.#view({ ...quote, status: 'accepted', decided_at: at });
  }

  async #move(quote: repo.QuoteRow, to: repo.QuoteStatus, at: number): Promise<void> {
    await this.#db.transaction(async (tx) => {
      if (!(await repo.transitionAllowed(tx, quote.status, to)))
        throw new Error(`quote ${quote.id}: ${quote.status} → ${to}`);
      await repo.moveQuote(tx, quote.id, quote.status, to, at);
    });
  }

  #view(q: repo.QuoteRow): ExchangeQuoteView {
    return {
      id: q.id,
      from: q.from_asset,
      to: q.to_asset,
      amount: q.amount,
      receive: q.receive,
      midRate: q.mid_rate,
      rate: q.rate,
      spreadBps: q.spread_bps,
      spreadCost: q.spread_cost,
      status: q.status,
      createdAt: q.created_at,
      expiresAt: q.expires_at,
      acceptedAt: q.status === 'accepted' ? q.decided_at : null,
      wallet: q.wallet,
      virtual: this.#virtual,
    };
  }
}
