// Currency exchange (POST /user/exchange): a quote at the simulator's USD rate less the spread, valid for
// QUOTE_VALIDITY_MS, then accepted as ONE engine `convert` through the platform's `exchange:fx` account
// (both legs or neither), or expired. Life cycle quoted → accepted | expired (exchange_quote_transitions).
// Must hold: acceptance moves exactly the quoted amounts; a retry of an accepted quote moves nothing again;
// an expired quote moves nothing. Must not: read a price from anywhere but the market data (rule 1).

import type { ExchangeQuoteView, ExchangeRatesView, ExchangeRateView } from '@bourse/contract';
import { EXCHANGE_CURRENCIES } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { convertTransferIds } from '@bourse/engine';
import { findInstrument, ticksToDecimal } from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { MarketData } from '../markets/service.ts';
import { formatRate, quoteFigures, rateE8Of } from './rates.ts';
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
    const available = this.#engine.state.balance(String(userId), EXCHANGE_WALLET, quote.from_asset).available;
    if (!paid.ok || available < paid.minor) throw new AppError('insufficient_balance');
    const result = await this.#engine.submit({
      type: 'convert',
      id: commandId,
      userId: String(userId),
      wallet: EXCHANGE_WALLET,
      asset: quote.from_asset,
      amount: quote.amount,
      toAsset: quote.to_asset,
      toAmount: quote.receive,
      via: EXCHANGE_ACCOUNT,
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
