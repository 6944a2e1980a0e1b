// Owns the stock sentiment vote: one bullish or bearish vote per customer, stock and trading day (the
// stock's exchange calendar decides the day: on a weekend or holiday a vote counts for the next trading
// day), the tallies of today and recent days, and the vote page's address per stock that staff set.
// Must hold: a second vote on the same day is refused (vote_already_cast), never an update; a staff
// change of an address is audited in the same transaction.
// Must not: be read by anything that sets prices. The vote is customers' opinion shown to customers;
// the market simulator, the paper venue and the engine never import this module (the dependency rule
// votes-read-by-nothing-that-prices in .dependency-cruiser.cjs; decision 0037).

import {
  type StaffVoteOverview,
  VOTE_RECENT_DAYS,
  type VoteSide,
  type VoteTally,
  type VoteUrlView,
  type VoteView,
} from '@bourse/contract';
import type { Db } from '@bourse/db';
import { addTradingDays, type ExchangeId, tradingDayOf } from '@bourse/market';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { appendAudit } from '../staff/audit.ts';
import type { StaffAuth } from '../staff/service.ts';
import * as repo from './repo.ts';

/** What the vote needs to know of a stock: given by the app wiring, so this module imports no market. */
export type VoteStock = { id: string; symbol: string; name: string; exchange: ExchangeId };

const ALL_STOCKS = '';

export class Votes {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #findStock: (symbol: string) => VoteStock | undefined;
  readonly #frameHosts: ReadonlySet<string>;
  readonly #defaultExchange: ExchangeId;

  constructor(deps: {
    db: Db;
    clock: Clock;
    findStock: (symbol: string) => VoteStock | undefined;
    /** Hosts the app may show in a frame (VOTE_FRAME_HOSTS); the CSP's frame-src names these only. */
    frameHosts: readonly string[];
    /** Whose calendar the console's "recent days" follow. */
    defaultExchange: ExchangeId;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#findStock = deps.findStock;
    this.#frameHosts = new Set(deps.frameHosts.map((h) => h.toLowerCase()));
    this.#defaultExchange = deps.defaultExchange;
  }

  #stock(symbol: string): VoteStock {
    const stock = this.#findStock(symbol);
    if (!stock) throw new AppError('unknown_instrument');
    return stock;
  }

  /** The trading day a vote cast now counts for: today when the exchange trades today, else the next. */
  #day(exchange: ExchangeId): string {
    return addTradingDays(exchange, tradingDayOf(exchange, this.#clock.now()), 0);
  }

  async view(userId: number, symbol: string): Promise<VoteView> {
    const stock = this.#stock(symbol);
    return this.#view(userId, stock, this.#day(stock.exchange));
  }

  async vote(userId: number, symbol: string, side: VoteSide): Promise<VoteView> {
    const stock = this.#stock(symbol);
    const day = this.#day(stock.exchange);
    const now = this.#clock.now();
    try {
      await this.#db.transaction(async (tx) => {
        if (await repo.findVote(tx, userId, stock.id, day)) throw new AppError('vote_already_cast');
        await repo.insertVote(tx, { userId, instrumentId: stock.id, day, side, now });
      });
    } catch (error) {
      // Two votes racing past the check: the unique rule refuses the second one's insert.
      if (!(error instanceof AppError) && (await repo.findVote(this.#db, userId, stock.id, day)))
        throw new AppError('vote_already_cast');
      throw error;
    }
    return this.#view(userId, stock, day);
  }

  async #view(userId: number, stock: VoteStock, day: string): Promise<VoteView> {
    const days = [day];
    for (let n = 1; n < VOTE_RECENT_DAYS; n++) days.push(addTradingDays(stock.exchange, day, -n));
    const rows = await repo.tallies(this.#db, stock.id, days);
    const recent: VoteTally[] = days.map((d) => ({ day: d, bullish: 0, bearish: 0 }));
    for (const row of rows) {
      const tally = recent.find((r) => r.day === row.trading_day);
      if (tally) tally[row.side] = Number(row.n);
    }
    return {
      symbol: stock.id,
      name: stock.name,
      exchange: stock.exchange,
      day,
      today: recent[0]!,
      recent,
      mine: await repo.findVote(this.#db, userId, stock.id, day),
    };
  }

  // --- the vote page's address ------------------------------------------------------------------

  #framable(url: string): boolean {
    return this.#frameHosts.has(new URL(url).host.toLowerCase());
  }

  /** The address for a stock (its own, else the one for every stock), or for every stock when none is named. */
  async voteUrl(symbol: string | undefined): Promise<VoteUrlView> {
    const stock = symbol ? this.#stock(symbol) : undefined;
    const own = stock ? await repo.findVoteUrl(this.#db, stock.id) : null;
    const url = own ?? (await repo.findVoteUrl(this.#db, ALL_STOCKS));
    if (!url) return { url: null, host: null, scope: null, framable: false };
    return { url, host: new URL(url).host, scope: own ? 'stock' : 'all', framable: this.#framable(url) };
  }

  async overview(): Promise<StaffVoteOverview> {
    const urls = (await repo.listVoteUrls(this.#db)).map((r) => ({
      symbol: r.instrument_id,
      url: r.url,
      framable: this.#framable(r.url),
      updatedBy: r.updated_by_name,
      updatedAt: new Date(Number(r.updated_at)).toISOString(),
    }));
    const ex = this.#defaultExchange;
    const from = addTradingDays(ex, this.#day(ex), -(VOTE_RECENT_DAYS - 1));
    const tallies = (await repo.talliesSince(this.#db, from, 50)).map((r) => ({
      symbol: r.instrument_id,
      name: this.#findStock(r.instrument_id)?.name ?? r.instrument_id,
      day: r.trading_day,
      bullish: Number(r.bullish),
      bearish: Number(r.bearish),
    }));
    return { urls, frameHosts: [...this.#frameHosts].sort(), tallies };
  }

  /** Sets (or with an empty url clears) the address for a stock, or for every stock when symbol is empty. */
  async setVoteUrl(auth: StaffAuth, input: { symbol: string; url: string; reason: string }) {
    const target = input.symbol ? this.#stock(input.symbol).id : ALL_STOCKS;
    const now = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      const previous = await repo.findVoteUrl(tx, target);
      if ((previous ?? '') === input.url) return;
      await repo.setVoteUrl(tx, target, input.url, auth.staff.id, now);
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'vote.url_set',
          targetType: 'vote_url',
          targetId: target || '*',
          reason: input.reason,
          detail: { symbol: target || null, url: input.url || null, previous },
        },
        now,
      );
    });
    return this.overview();
  }
}
