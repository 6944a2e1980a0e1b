// IPO subscription (issue 26, DOMAIN.md, decision 0031): staff create an IPO and a second staff member
// publishes it; customers apply online (retail: up to 3 bids, the highest held, ASBA) or offline (NII:
// nothing held until allotted, then a payment window); at the close the allotment runs by published
// rules (a seeded lottery for retail, committed before the open; pro-rata for NII) and settles through
// the engine's settle_allotment in batches; listing day releases the locked shares.
// Holds: every money move is an engine command with a cause (`allotment`) and a link to the application
// (`ipo-application:<id>`), its id derived from the row, so re-sending after a crash is harmless; every
// state change follows ipo_transitions / ipo_application_transitions and is recorded; a rejected request
// changes nothing. Must not: let anyone choose allottees (no call takes one); promise an allotment.

import type {
  IpoApplicationView,
  IpoChannel,
  IpoDrawRecordView,
  IpoExchange,
  IpoStatus,
  IpoView,
  Lang,
  StaffIpoView,
} from '@bourse/contract';
import { IPO_DRAW_ALGORITHM } from '@bourse/contract';
import { beaconRoundTime, drawBeaconRound, drawSeedOf } from '@bourse/contract/beacon';
import { drawIpoRetail, ipoSeedHash } from '@bourse/contract/ipo-draw';
import type { Db, Sql } from '@bourse/db';
import { ALLOTMENT_BATCH_MAX, type AllotmentEntry, allotmentLockId } from '@bourse/engine';
import { addTradingDays, isTradingDay, sessionOn, tradingDayOf } from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { BeaconRound, RandomnessBeacon } from '../../adapters/beacon/beacon-port.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { UserRow } from '../accounts/repo.ts';
import { appendAudit } from '../staff/audit.ts';
import { allotNii, applicationRef, bidAmount, categoryShares, demandLots } from './allotment.ts';
import * as repo from './repo.ts';

/** Subscriptions are paid in the stock wallet's currency and the shares land there. */
const WALLET = 'stock';
const CURRENCY = 'INR';
const SCALE = 2;
/** SEBI's retail ceiling per application (₹2,00,000); offline (NII) applications must be above it. */
const RETAIL_MAX_MINOR = 200_000_00n;
const HOUR = 3_600_000;

export type IpoSettings = {
  kycRequired: boolean;
  /** The deployment's auto-subscribe switch (SPEC: openAutoApply = 1). */
  openAutoApply: 0 | 1;
  /** How long an offline allottee has to pay, from the draw. */
  paymentWindowHours: number;
  /** The range one lot's value (lot size × top of the band) must lie in, rupees as decimal strings. */
  lotValue: { min: string; max: string };
};

export type IpoDeps = {
  db: Db;
  engine: TradingEngine;
  clock: Clock;
  settings: IpoSettings;
  /** 32 random bytes for a draw seed (injected: tests and demos may fix it). */
  randomSeed: () => Uint8Array;
  /** The public beacon whose round, fixed at the opening and published after the close, is mixed into the seed. */
  beacon: RandomnessBeacon;
  /** Whether `exchange:symbol` is already a stock on the market (a new IPO may not reuse it). */
  isListedStock: (exchange: string, symbol: string) => boolean;
  /** Lists the new stock on the market on listing day (runtime listing); null lists nothing. */
  listStock:
    | ((
        stock: { exchange: IpoExchange; symbol: string; name: string; issuePrice: string },
        source: string,
      ) => Promise<unknown>)
    | null;
  log: (message: string) => void;
  /** Holds per settle_allotment; tests set it small to exercise the multi-batch path without 5,000 customers. */
  batchMax?: number;
};

/** What the console sends to create an IPO, parsed by the contract. */
export type CreateIpo = {
  issuer: string;
  exchange: 'NSE' | 'BSE';
  symbol: string;
  name: string;
  priceLow: string;
  priceHigh: string;
  lotSize: number;
  totalShares: string;
  retailPct: number;
  niiPct: number;
  qibPct: number;
  opensOn: string;
  closesOn: string;
  note?: string | undefined;
};

type BidFields = {
  bid1Lots: number;
  bid1Price: string;
  bid2Lots?: number | undefined;
  bid2Price?: string | undefined;
  bid3Lots?: number | undefined;
  bid3Price?: string | undefined;
};

const PUBLISHED: readonly IpoStatus[] = ['upcoming', 'open', 'closed', 'allotted', 'listed'];

export const applicationLink = (id: number) => `ipo-application:${id}`;
/** The funds hold of an application (online: at application; offline: at payment). */
export const applicationHoldId = (id: number) => `ipo-app:${id}`;
/** The issuer's platform account: one per IPO (a symbol is shared across exchanges and with coin offerings). */
export const ipoIssuerAccount = (ipoId: number) => `issuer:ipo-${ipoId}` as const;
const shareAsset = (ipo: repo.IpoRow) => `SHARE:${ipo.exchange}:${ipo.symbol}`;
const fmt = (minor: bigint) => formatDecimal(minor, SCALE);

/** An amount as the customer reads it in their language (the limit messages). */
const shown = (minor: bigint, lang: Lang) =>
  new Intl.NumberFormat(lang, { style: 'currency', currency: CURRENCY }).format(fmt(minor) as `${number}`);

export class Ipos {
  readonly #d: IpoDeps;
  /** One timed run at a time (the scheduler's ticks and a console's "run listing" may meet). */
  #running: Promise<void> = Promise.resolve();
  readonly #batchMax: number;
  constructor(deps: IpoDeps) {
    this.#d = deps;
    const batchMax = deps.batchMax ?? ALLOTMENT_BATCH_MAX;
    if (!Number.isInteger(batchMax) || batchMax < 1 || batchMax > ALLOTMENT_BATCH_MAX)
      throw new RangeError(`batchMax must be an integer from 1 to ${ALLOTMENT_BATCH_MAX}, not ${batchMax}`);
    this.#batchMax = batchMax;
  }

  /** The same service settling in batches of `batchMax` through `engine` (tests: several batches, a crash). */
  withBatches(batchMax: number, engine: TradingEngine = this.#d.engine): Ipos {
    return new Ipos({ ...this.#d, batchMax, engine });
  }

  /** The same service on another clock: paper mode's demo data replays past steps with it. */
  withClock(clock: Clock): Ipos {
    return new Ipos({ ...this.#d, clock });
  }

  get settings(): IpoSettings {
    return this.#d.settings;
  }

  // --- reading ---------------------------------------------------------------------------------------

  async #view(row: repo.IpoRow): Promise<IpoView> {
    const shares = categoryShares(row.total_shares, row.lot_size, {
      retailPct: row.retail_pct,
      niiPct: row.nii_pct,
      qibPct: row.qib_pct,
    });
    const demand = await repo.subscription(this.#d.db, row.id);
    const lot = BigInt(row.lot_size);
    const category = (name: 'retail' | 'nii' | 'qib', offered: bigint, channel: IpoChannel | null) => {
      const d = demand.find((x) => x.channel === channel);
      const applied = (d?.lots ?? 0n) * lot;
      return {
        category: name,
        offered: offered.toString(),
        applied: applied.toString(),
        applications: d?.applications ?? 0,
        times: offered > 0n ? formatDecimal((applied * 100n) / offered, 2) : '0.00',
      };
    };
    const priced = row.status === 'closed' || row.status === 'allotted' || row.status === 'listed';
    const perLot = lot * row.price_high_minor;
    return {
      id: row.id,
      issuer: row.issuer,
      exchange: row.exchange,
      symbol: row.symbol,
      name: row.name,
      currency: row.currency,
      priceLow: fmt(row.price_low_minor),
      priceHigh: fmt(row.price_high_minor),
      issuePrice: priced ? fmt(row.price_high_minor) : null,
      lotSize: row.lot_size,
      totalShares: row.total_shares.toString(),
      retailPct: row.retail_pct,
      niiPct: row.nii_pct,
      qibPct: row.qib_pct,
      retailMaxAmount: fmt(RETAIL_MAX_MINOR),
      minLots: 1,
      maxRetailLots: Number(RETAIL_MAX_MINOR / perLot),
      opensAt: row.opens_at,
      closesAt: row.closes_at,
      allotmentAt: row.closes_at,
      listingAt: row.listing_at,
      status: row.status,
      subscription: [
        category('retail', shares.retail, 'online'),
        category('nii', shares.nii, 'offline'),
        category('qib', shares.qib, null),
      ],
      seedHash: row.seed_hash,
      seed: row.drawn_at === null ? null : row.seed,
      beacon:
        row.beacon_source === null || row.beacon_round === null
          ? null
          : {
              source: row.beacon_source,
              round: row.beacon_round,
              roundTime: beaconRoundTime(row.beacon_source, row.beacon_round),
            },
      drawMode: row.draw_mode,
      paymentWindowHours: this.#d.settings.paymentWindowHours,
    };
  }

  async #published(id: number): Promise<repo.IpoRow> {
    const row = await repo.findIpo(this.#d.db, id);
    if (!row || !PUBLISHED.includes(row.status)) throw new AppError('ipo_not_found');
    return row;
  }

  /** The customer lists: all published, open now, upcoming; offline ones are those with an NII share. */
  async list(
    kind: 'all' | 'today' | 'coming',
    offline: boolean,
    page: { page: number; limit: number },
  ): Promise<{ items: IpoView[]; total: number }> {
    const statuses = kind === 'today' ? ['open' as const] : kind === 'coming' ? ['upcoming' as const] : PUBLISHED;
    const { rows, total } = await repo.listIpos(this.#d.db, {
      statuses,
      offline,
      limit: page.limit,
      offset: (page.page - 1) * page.limit,
    });
    return { items: await Promise.all(rows.map((r) => this.#view(r))), total };
  }

  async info(id: number): Promise<IpoView> {
    return this.#view(await this.#published(id));
  }

  #applicationView(row: repo.ApplicationRow, ipo: repo.IpoRow): IpoApplicationView {
    return {
      id: row.id,
      ref: applicationRef(row.id),
      ipoId: ipo.id,
      symbol: ipo.symbol,
      name: ipo.name,
      currency: ipo.currency,
      channel: row.channel,
      auto: row.auto,
      bids: row.bids.map((b) => {
        const priceMinor = BigInt(b.priceMinor);
        return {
          lots: b.lots,
          price: fmt(priceMinor),
          cutOff: b.cutOff,
          amount: fmt(bidAmount({ lots: b.lots, priceMinor }, ipo.lot_size)),
        };
      }),
      heldAmount: fmt(row.hold_id === null ? 0n : row.hold_minor),
      status: row.status,
      allottedShares: row.allotted_shares.toString(),
      allottedAmount: fmt(row.allotted_minor),
      paymentDueAt: row.status === 'wait_for_payment' ? row.payment_due_at : null,
      reason: row.reason,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  async #applicationOf(userId: number, id: number): Promise<{ row: repo.ApplicationRow; ipo: repo.IpoRow }> {
    const row = await repo.findApplication(this.#d.db, id);
    // Another customer's application is answered as not found (never "forbidden": it would confirm it exists).
    if (!row || row.user_id !== userId) throw new AppError('ipo_application_not_found');
    return { row, ipo: (await repo.findIpo(this.#d.db, row.ipo_id)) as repo.IpoRow };
  }

  async applications(
    userId: number,
    channel: IpoChannel,
    q: { page: number; limit: number; ipoId?: number | undefined },
  ): Promise<{ items: IpoApplicationView[]; total: number }> {
    const { rows, total } = await repo.listApplications(this.#d.db, {
      userId,
      channel,
      ipoId: q.ipoId,
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    });
    const ipos = new Map<number, repo.IpoRow>();
    for (const r of rows) {
      if (!ipos.has(r.ipo_id)) ipos.set(r.ipo_id, (await repo.findIpo(this.#d.db, r.ipo_id)) as repo.IpoRow);
    }
    return { items: rows.map((r) => this.#applicationView(r, ipos.get(r.ipo_id) as repo.IpoRow)), total };
  }

  // --- applying --------------------------------------------------------------------------------------

  async #openIpo(id: number): Promise<repo.IpoRow> {
    const ipo = await this.#published(id);
    const now = this.#d.clock.now();
    if (ipo.status !== 'open' || now < ipo.opens_at || now >= ipo.closes_at) throw new AppError('ipo_not_open');
    return ipo;
  }

  /** A bid's price: "cutoff" (online only) is the top of the band; anything else must lie in the band. */
  #price(ipo: repo.IpoRow, text: string, field: string, online: boolean): { priceMinor: bigint; cutOff: boolean } {
    if (text.toLowerCase() === 'cutoff' || text.toLowerCase() === 'cut-off') {
      if (!online) throw fieldError(field, 'ipo_cutoff_not_allowed');
      return { priceMinor: ipo.price_high_minor, cutOff: true };
    }
    const parsed = tryParseDecimal(text, SCALE);
    if (!parsed.ok) throw fieldError(field, 'field_invalid');
    if (parsed.minor < ipo.price_low_minor || parsed.minor > ipo.price_high_minor)
      throw fieldError(field, 'ipo_price_out_of_band', () => ({
        low: fmt(ipo.price_low_minor),
        high: fmt(ipo.price_high_minor),
      }));
    return { priceMinor: parsed.minor, cutOff: false };
  }

  #bids(ipo: repo.IpoRow, body: BidFields): repo.StoredBid[] {
    const raw = [
      [body.bid1Lots, body.bid1Price],
      [body.bid2Lots, body.bid2Price],
      [body.bid3Lots, body.bid3Price],
    ] as const;
    const bids: repo.StoredBid[] = [];
    raw.forEach(([lots, price], i) => {
      const n = i + 1;
      if (lots === undefined && price === undefined) return;
      if (lots === undefined) throw fieldError(`bid${n}Lots`, 'ipo_bid_incomplete');
      if (price === undefined) throw fieldError(`bid${n}Price`, 'ipo_bid_incomplete');
      if (lots < 1) throw fieldError(`bid${n}Lots`, 'ipo_lots_invalid');
      const { priceMinor, cutOff } = this.#price(ipo, price, `bid${n}Price`, true);
      if (bidAmount({ lots, priceMinor }, ipo.lot_size) > RETAIL_MAX_MINOR)
        throw fieldError(`bid${n}Lots`, 'ipo_retail_limit', (lang) => ({ max: shown(RETAIL_MAX_MINOR, lang) }));
      bids.push({ lots, priceMinor: priceMinor.toString(), cutOff });
    });
    return bids;
  }

  #available(userId: number): bigint {
    return this.#d.engine.state.balance(String(userId), WALLET, CURRENCY).available;
  }

  /**
   * An online (retail) application: checked in full, then recorded and its highest bid's amount held
   * (hold_funds, cause allotment). A hold the engine refuses (funds spent meanwhile) removes the row.
   */
  async applyOnline(
    user: UserRow,
    body: BidFields & { ipoId: number; password?: string | undefined },
    checkPin: (pin: string | undefined) => Promise<void>,
  ): Promise<IpoApplicationView> {
    const ipo = await this.#openIpo(body.ipoId);
    this.#checkKyc(user);
    const bids = this.#bids(ipo, body);
    await checkPin(body.password);
    return this.#applyRetail(user, ipo, bids, false);
  }

  #checkKyc(user: Pick<UserRow, 'id_status'>): void {
    if (this.#d.settings.kycRequired && user.id_status !== 'succ') throw new AppError('kyc_required');
  }

  async #applyRetail(
    user: Pick<UserRow, 'id' | 'id_status'>,
    ipo: repo.IpoRow,
    bids: repo.StoredBid[],
    auto: boolean,
  ): Promise<IpoApplicationView> {
    // Checked here too (not only in applyOnline): auto-subscribe comes in this way.
    this.#checkKyc(user);
    const userId = user.id;
    // The highest bid's amount is what is held (bigint: Math.max does not take it).
    let held = 0n;
    for (const b of bids) {
      const amount = bidAmount({ lots: b.lots, priceMinor: BigInt(b.priceMinor) }, ipo.lot_size);
      if (amount > held) held = amount;
    }
    if (await repo.hasApplied(this.#d.db, ipo.id, userId)) throw new AppError('ipo_already_applied');
    if (this.#available(userId) < held) throw new AppError('ipo_insufficient_funds');
    const at = this.#d.clock.now();
    const id = await this.#insert({
      ipoId: ipo.id,
      userId,
      channel: 'online',
      auto,
      bids,
      demandLots: demandLots(bids, ipo.price_high_minor),
      holdMinor: held,
      at,
    });
    const holdId = applicationHoldId(id);
    const result = await this.#d.engine.submit({
      type: 'hold_funds',
      id: holdId,
      userId: String(userId),
      wallet: WALLET,
      asset: CURRENCY,
      amount: fmt(held),
      cause: 'allotment',
      link: applicationLink(id),
    });
    if (!result.ok) {
      await this.#d.db.transaction((tx) => repo.deleteApplication(tx, id));
      throw new AppError(result.code === 'insufficient_balance' ? 'ipo_insufficient_funds' : 'internal_error');
    }
    // Cancelled (or swept after the close) while the hold was being placed: the hold goes at once.
    if (!(await repo.setHoldId(this.#d.db, id, holdId, held, at, 'applying'))) await this.#release(holdId);
    return this.#applicationView((await repo.findApplication(this.#d.db, id)) as repo.ApplicationRow, ipo);
  }

  async #insert(a: repo.NewApplication): Promise<number> {
    let id: number | null;
    try {
      id = await this.#d.db.transaction((tx) => repo.insertApplication(tx, a));
    } catch (error) {
      // The unique (ipo, customer) key: a request racing this one applied first.
      if (await repo.hasApplied(this.#d.db, a.ipoId, a.userId)) throw new AppError('ipo_already_applied');
      throw error;
    }
    // The close committed between the window check and the insert.
    if (id === null) throw new AppError('ipo_not_open');
    return id;
  }

  /** An offline (NII) application: one bid in the band, above the retail ceiling; nothing held until allotted. */
  async applyOffline(
    user: UserRow,
    body: { ipoId: number; lots: number; price: string; password?: string | undefined },
    checkPin: (pin: string | undefined) => Promise<void>,
  ): Promise<IpoApplicationView> {
    const ipo = await this.#openIpo(body.ipoId);
    if (ipo.nii_pct === 0) throw new AppError('ipo_offline_closed');
    this.#checkKyc(user);
    if (body.lots < 1) throw fieldError('lots', 'ipo_lots_invalid');
    const { priceMinor } = this.#price(ipo, body.price, 'price', false);
    const amount = bidAmount({ lots: body.lots, priceMinor }, ipo.lot_size);
    if (amount <= RETAIL_MAX_MINOR)
      throw fieldError('lots', 'ipo_offline_minimum', (lang) => ({ min: shown(RETAIL_MAX_MINOR, lang) }));
    await checkPin(body.password);
    if (await repo.hasApplied(this.#d.db, ipo.id, user.id)) throw new AppError('ipo_already_applied');
    const bids = [{ lots: body.lots, priceMinor: priceMinor.toString(), cutOff: false }];
    const id = await this.#insert({
      ipoId: ipo.id,
      userId: user.id,
      channel: 'offline',
      auto: false,
      bids,
      demandLots: demandLots(bids, ipo.price_high_minor),
      holdMinor: 0n,
      at: this.#d.clock.now(),
    });
    return this.#applicationView((await repo.findApplication(this.#d.db, id)) as repo.ApplicationRow, ipo);
  }

  /**
   * Cancels an application before the close: the row first, then its hold released (void_hold); a crash
   * in between is repaired by the job's sweep, and a hold still being placed by the apply itself.
   */
  async cancel(userId: number, id: number): Promise<IpoApplicationView> {
    const { row, ipo } = await this.#applicationOf(userId, id);
    const now = this.#d.clock.now();
    if (row.status !== 'applying' || ipo.status !== 'open' || now >= ipo.closes_at)
      throw new AppError('ipo_not_cancellable');
    const moved = await this.#d.db.transaction((tx) =>
      repo.moveApplication(tx, id, 'applying', 'unsubscribed', now, 'customer', ''),
    );
    if (!moved) throw new AppError('ipo_not_cancellable');
    if (row.hold_id !== null) await this.#voidHold(row.hold_id, `${applicationHoldId(id)}:cancel`);
    return this.#applicationView((await repo.findApplication(this.#d.db, id)) as repo.ApplicationRow, ipo);
  }

  /**
   * Releases an application's hold that must not be there (a cancel, the close or a forfeiture got in
   * first, or a crash came between the move and the release). Sent only while the hold exists: the
   * engine would remember a refusal under this id.
   */
  async #release(holdId: string): Promise<void> {
    if (this.#d.engine.state.fundsHold(holdId) !== undefined) await this.#voidHold(holdId, `${holdId}:release`);
  }

  /** Releases a hold; one already gone (a re-send after a crash) is fine. */
  async #voidHold(holdId: string, commandId: string): Promise<void> {
    const result = await this.#d.engine.submit({ type: 'void_hold', id: commandId, holdId });
    if (!result.ok && this.#d.engine.state.fundsHold(holdId) !== undefined)
      throw new Error(`void_hold ${holdId}: ${result.code}`);
  }

  /**
   * An offline allottee pays inside the window: the amount held, then that one hold settled
   * (settle_allotment: paid to the issuer, shares delivered, locked until listing day).
   */
  async pay(
    user: UserRow,
    id: number,
    password: string | undefined,
    checkPin: (pin: string | undefined) => Promise<void>,
  ): Promise<IpoApplicationView> {
    const { row, ipo } = await this.#applicationOf(user.id, id);
    const now = this.#d.clock.now();
    if (row.status !== 'wait_for_payment' || row.payment_due_at === null || now >= row.payment_due_at)
      throw new AppError('ipo_not_payable');
    await checkPin(password);
    if (this.#available(user.id) < row.allotted_minor && row.hold_id === null)
      throw new AppError('ipo_insufficient_funds');
    const holdId = applicationHoldId(id);
    if (row.hold_id === null) {
      const held = await this.#d.engine.submit({
        type: 'hold_funds',
        id: holdId,
        userId: String(user.id),
        wallet: WALLET,
        asset: CURRENCY,
        amount: fmt(row.allotted_minor),
        cause: 'allotment',
        link: applicationLink(id),
      });
      if (!held.ok) throw new AppError('ipo_insufficient_funds');
      // Forfeited while the hold was being placed: released, and the payment refused.
      if (!(await repo.setHoldId(this.#d.db, id, holdId, row.allotted_minor, now, 'wait_for_payment'))) {
        await this.#release(holdId);
        throw new AppError('ipo_not_payable');
      }
    }
    await this.#settle(ipo, `${holdId}:pay`, [[holdId, fmt(row.allotted_minor), row.allotted_shares.toString()]]);
    const moved = await this.#d.db.transaction(async (tx) => {
      if (!(await repo.moveApplication(tx, id, 'wait_for_payment', 'paid', now, 'customer', ''))) return false;
      await repo.markSettled(tx, [id], now);
      return true;
    });
    const after = (await repo.findApplication(this.#d.db, id)) as repo.ApplicationRow;
    // Not moved: the job got there first, recording the settled payment as paid or forfeiting the unpaid one.
    if (!moved && after.status !== 'paid') throw new AppError('ipo_not_payable');
    return this.#applicationView(after, ipo);
  }

  async #settle(ipo: repo.IpoRow, commandId: string, entries: AllotmentEntry[]): Promise<void> {
    const result = await this.#d.engine.submit({
      type: 'settle_allotment',
      id: commandId,
      to: ipoIssuerAccount(ipo.id),
      asset: shareAsset(ipo),
      wallet: WALLET,
      // Before listing day the shares wait locked; after it they are tradable at once.
      lock: ipo.status !== 'listed',
      entries,
      link: `ipo:${ipo.id}`,
    });
    // Already settled (a re-send after a crash): each hold is gone once settled.
    if (!result.ok && entries.some(([holdId]) => this.#d.engine.state.fundsHold(holdId) !== undefined))
      throw new Error(`settle_allotment ${commandId}: ${result.code}`);
  }

  // --- auto-subscribe --------------------------------------------------------------------------------

  async autoApply(userId: number): Promise<{ enabled: boolean; openAutoApply: number }> {
    return {
      enabled: await repo.autoApplyEnabled(this.#d.db, userId),
      openAutoApply: this.#d.settings.openAutoApply,
    };
  }

  async setAutoApply(userId: number, enabled: boolean): Promise<{ enabled: boolean; openAutoApply: number }> {
    if (this.#d.settings.openAutoApply !== 1) throw new AppError('ipo_auto_apply_unavailable');
    await repo.setAutoApply(this.#d.db, userId, enabled, this.#d.clock.now());
    return this.autoApply(userId);
  }

  /** At the open: one lot at cut-off for each consenting customer with the funds; the rest skipped, with a record. */
  async #autoSubscribe(ipo: repo.IpoRow): Promise<void> {
    if (this.#d.settings.openAutoApply !== 1 || ipo.retail_pct === 0) return;
    const bids = [{ lots: 1, priceMinor: ipo.price_high_minor.toString(), cutOff: true }];
    const at = this.#d.clock.now();
    for (const user of await repo.autoApplyUsers(this.#d.db)) {
      const userId = user.id;
      let outcome: 'applied' | 'skipped' = 'applied';
      let reason = '';
      try {
        await this.#applyRetail(user, ipo, bids, true);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcome = 'skipped';
        reason = error.code;
      }
      await repo.logAutoApply(this.#d.db, { ipoId: ipo.id, userId, outcome, reason, at });
    }
  }

  async autoApplyLog(ipoId: number) {
    return repo.autoApplyLog(this.#d.db, ipoId);
  }

  // --- the timed steps -------------------------------------------------------------------------------

  /** The scheduled job: opens, closes and draws, resumes an interrupted settlement, lists, forfeits. */
  tick(): Promise<void> {
    const run = this.#running.then(() => this.#tick());
    this.#running = run.catch((error) => this.#d.log(`ipo job failed: ${String(error)}`));
    return run;
  }

  /** Closing: waits for a run in progress (it writes through the engine and the database). */
  stop(): Promise<void> {
    return this.#running;
  }

  async #tick(): Promise<void> {
    const now = this.#d.clock.now();
    for (const ipo of await repo.dueIpos(this.#d.db, now)) {
      if (ipo.status === 'upcoming') await this.#open(ipo);
      else if (ipo.status === 'open') await this.#close(ipo);
      else if (ipo.status === 'closed') await this.#draw(ipo);
      else if (ipo.status === 'allotted') await this.#list(ipo, null, '');
    }
    // A draw's settlement interrupted by a crash is re-sent (the same batch ids); a listed IPO's late
    // payments (and an interrupted listing) get their locked shares released.
    const { rows } = await repo.listIpos(this.#d.db, { statuses: ['allotted', 'listed'], limit: 1000, offset: 0 });
    for (const ipo of rows) {
      await this.#settleDrawn(ipo);
      if (ipo.status === 'listed') await this.#unlock(ipo);
    }
    for (const row of await repo.paymentsOverdue(this.#d.db, now)) await this.#overdue(row, now);
    await this.#sweep(false);
  }

  /**
   * An unpaid allotment past its window. A payment may have got as far as the engine before a crash:
   * a live hold is released first (a payment racing it then fails), and a settled one is recorded as
   * paid, never forfeited.
   */
  async #overdue(row: repo.ApplicationRow, now: number): Promise<void> {
    const holdId = applicationHoldId(row.id);
    if (this.#d.engine.state.fundsHold(holdId) !== undefined) await this.#voidHold(holdId, `${holdId}:forfeit`);
    const paid = this.#d.engine.state.transferPosted(`${holdId}:allot`);
    await this.#d.db.transaction(async (tx) => {
      if (!paid) {
        await repo.moveApplication(tx, row.id, 'wait_for_payment', 'forfeited', now, 'system', 'payment window passed');
        return;
      }
      if (!(await repo.moveApplication(tx, row.id, 'wait_for_payment', 'paid', now, 'system', 'payment settled')))
        return;
      await repo.setHoldId(tx, row.id, holdId, row.allotted_minor, now, 'paid');
      await repo.markSettled(tx, [row.id], now);
    });
  }

  /**
   * Holds that must not be there: an application still `applying` on a closed IPO (recorded after the
   * close moved the rest; never drawn) is unsubscribed, then every cancelled, forfeited or undrawn
   * application's hold still in the engine is released. `all` also looks at listed IPOs (at start-up).
   */
  async #sweep(all: boolean): Promise<void> {
    const now = this.#d.clock.now();
    for (const row of await repo.applyingAfterClose(this.#d.db)) {
      await this.#d.db.transaction((tx) =>
        repo.moveApplication(tx, row.id, 'applying', 'unsubscribed', now, 'system', 'received after the close'),
      );
    }
    for (const row of await repo.heldNothing(this.#d.db, all)) await this.#release(applicationHoldId(row.id));
  }

  /**
   * The open: the draw's seed is generated now and only its hash published, with the beacon round the
   * draw will mix in (drawBeaconRound: the first one published ≥ 30 s after the close). Both go into
   * the append-only audit log too, so a seed or round replaced later would contradict it (decision 0036).
   */
  async #open(ipo: repo.IpoRow): Promise<void> {
    const seed = Buffer.from(this.#d.randomSeed()).toString('hex');
    const seedHash = ipoSeedHash(seed);
    const source = this.#d.beacon.source;
    const round = drawBeaconRound(source, ipo.closes_at);
    const at = this.#d.clock.now();
    const moved = await this.#d.db.transaction(async (tx) => {
      const done = await repo.moveIpo(tx, ipo.id, 'upcoming', 'open', at, {
        seed,
        seed_hash: seedHash,
        beacon_source: source,
        beacon_round: round,
      });
      if (done)
        await audit(
          tx,
          0,
          'ipo.draw_committed',
          ipo.id,
          'the draw is committed at the opening',
          { seedHash, beacon: { source, round } },
          at,
        );
      return done;
    });
    if (moved) await this.#autoSubscribe({ ...ipo, status: 'open' });
  }

  async #close(ipo: repo.IpoRow): Promise<void> {
    const at = this.#d.clock.now();
    await this.#d.db.transaction(async (tx) => {
      if (!(await repo.moveIpo(tx, ipo.id, 'open', 'closed', at))) return;
      for (const row of await repo.applicationsOf(tx, ipo.id, ['applying'])) {
        // An online one whose hold is still being placed is left out (not drawn); the sweep unsubscribes it.
        if (row.channel === 'online' && row.hold_id === null) continue;
        await repo.moveApplication(tx, row.id, 'applying', 'waiting_allocated', at, 'system', '');
      }
    });
    await this.#draw({ ...ipo, status: 'closed' });
  }

  /**
   * The allotment: retail by the seeded draw, NII pro-rata, decided and recorded in one transaction
   * (the seed revealed with it); then the engine settles the retail holds in batches.
   */
  async #draw(ipo: repo.IpoRow): Promise<void> {
    if (ipo.seed === null) throw new Error(`ipo ${ipo.id} has no seed`);
    // v2 (decision 0036): wait for the beacon round fixed at the opening; the next tick tries again.
    let drawSeed = ipo.seed;
    let beacon: BeaconRound | null = null;
    if (ipo.beacon_source !== null && ipo.beacon_round !== null) {
      if (ipo.beacon_source !== this.#d.beacon.source) {
        // The round was fixed on another beacon at the opening: only that one may decide this draw.
        this.#d.log(`ipo ${ipo.id} waits for a ${ipo.beacon_source} round; this server uses ${this.#d.beacon.source}`);
        return;
      }
      beacon = await this.#d.beacon.round(ipo.beacon_round);
      if (beacon === null) return;
      drawSeed = drawSeedOf(ipo.seed, beacon.randomness);
    }
    const at = this.#d.clock.now();
    const shares = categoryShares(ipo.total_shares, ipo.lot_size, {
      retailPct: ipo.retail_pct,
      niiPct: ipo.nii_pct,
      qibPct: ipo.qib_pct,
    });
    const waiting = await repo.applicationsOf(this.#d.db, ipo.id, ['waiting_allocated']);
    const online = waiting.filter((r) => r.channel === 'online');
    const offline = waiting.filter((r) => r.channel === 'offline' && r.demand_lots > 0);
    const draw = drawIpoRetail({
      seed: drawSeed,
      applications: online
        .filter((r) => r.demand_lots > 0)
        .map((r) => ({ ref: applicationRef(r.id), lots: r.demand_lots })),
      retailShares: shares.retail,
      lotSize: ipo.lot_size,
    });
    const won = new Map(draw.allotments.map((a) => [a.ref, a.lots]));
    const nii = allotNii(
      offline.map((r) => r.demand_lots),
      shares.nii,
      ipo.lot_size,
    );
    const niiOf = new Map(offline.map((r, i) => [r.id, nii[i] as bigint]));
    const lot = BigInt(ipo.lot_size);
    const dueAt = at + this.#d.settings.paymentWindowHours * HOUR;
    await this.#d.db.transaction(async (tx) => {
      const drawn = { draw_mode: draw.mode, drawn_at: at };
      const withBeacon =
        beacon === null
          ? drawn
          : { ...drawn, beacon_randomness: beacon.randomness, beacon_signature: beacon.signature };
      if (!(await repo.moveIpo(tx, ipo.id, 'closed', 'allotted', at, withBeacon))) return;
      for (const row of waiting) {
        const qty =
          row.channel === 'online' ? BigInt(won.get(applicationRef(row.id)) ?? 0) * lot : (niiOf.get(row.id) ?? 0n);
        const cost = qty * ipo.price_high_minor;
        if (qty === 0n) {
          const reason = row.demand_lots === 0 ? 'every bid was below the issue price' : '';
          await repo.moveApplication(tx, row.id, 'waiting_allocated', 'not_allotted', at, 'system', reason);
        } else if (row.channel === 'online') {
          await repo.moveApplication(tx, row.id, 'waiting_allocated', 'allocated', at, 'system', '', {
            allottedShares: qty,
            allottedMinor: cost,
          });
        } else {
          await repo.moveApplication(tx, row.id, 'waiting_allocated', 'wait_for_payment', at, 'system', '', {
            allottedShares: qty,
            allottedMinor: cost,
            paymentDueAt: dueAt,
          });
        }
      }
    });
    const drawn = (await repo.findIpo(this.#d.db, ipo.id)) as repo.IpoRow;
    await this.#settleDrawn(drawn);
  }

  /**
   * The retail holds of a drawn IPO, settled in batches (ALLOTMENT_BATCH_MAX unless set) in id order: each
   * allottee's part posted to the issuer with its shares delivered (locked), every other hold released,
   * in the same command. The batch id is fixed by the IPO and the batch's first application. A batch is
   * recorded settled after the engine took it; a crash between the two leaves it to the next run, which
   * records it without re-sending it.
   */
  async #settleDrawn(ipo: repo.IpoRow): Promise<void> {
    const pending = await repo.unsettledDrawn(this.#d.db, ipo.id);
    for (let i = 0; i < pending.length; i += this.#batchMax) {
      const batch = pending.slice(i, i + this.#batchMax);
      const entries: AllotmentEntry[] = batch.map((r) => [
        r.hold_id as string,
        fmt(r.allotted_minor),
        r.allotted_shares.toString(),
      ]);
      // Each hold is gone once settled: a batch with none left went through before a crash cut the run short
      // of recording it, and is recorded now rather than sent again.
      if (entries.some(([holdId]) => this.#d.engine.state.fundsHold(holdId) !== undefined))
        await this.#settle(ipo, `ipo:${ipo.id}:draw:${batch[0]?.id}`, entries);
      await repo.markSettled(
        this.#d.db,
        batch.map((r) => r.id),
        this.#d.clock.now(),
      );
    }
  }

  /** Listing day: every locked allotment released (void_hold of lock:<hold>), then the stock listed. */
  async #list(ipo: repo.IpoRow, staffId: number | null, reason: string): Promise<void> {
    await this.#settleDrawn(ipo);
    const at = this.#d.clock.now();
    await this.#unlock(ipo);
    if (this.#d.listStock && !this.#d.isListedStock(ipo.exchange, ipo.symbol)) {
      // The trading lot is one share (the IPO's lot is for applications only).
      await this.#d.listStock(
        { exchange: ipo.exchange, symbol: ipo.symbol, name: ipo.name, issuePrice: fmt(ipo.price_high_minor) },
        `ipo:${ipo.id}`,
      );
    }
    await this.#d.db.transaction(async (tx) => {
      if (!(await repo.moveIpo(tx, ipo.id, 'allotted', 'listed', at, { listed_at: at }))) return;
      if (staffId !== null) await audit(tx, staffId, 'ipo.list', ipo.id, reason, { symbol: ipo.symbol }, at);
    });
  }

  /** Every settled allotment's locked shares released (void_hold of lock:<hold>). */
  async #unlock(ipo: repo.IpoRow): Promise<void> {
    for (const row of await repo.lockedAllotments(this.#d.db, ipo.id)) {
      await this.#voidHold(allotmentLockId(row.hold_id as string), `${row.hold_id}:unlock`);
      await repo.markUnlocked(this.#d.db, row.id, this.#d.clock.now());
    }
  }

  // --- the public draw record ------------------------------------------------------------------------

  async drawRecord(ipoId: number): Promise<IpoDrawRecordView> {
    const ipo = await this.#published(ipoId);
    if (ipo.drawn_at === null || ipo.seed === null || ipo.seed_hash === null || ipo.draw_mode === null)
      throw new AppError('ipo_draw_not_ready');
    const drawn = await repo.applicationsOf(this.#d.db, ipo.id, ['allocated', 'not_allotted']);
    const online = drawn.filter((r) => r.channel === 'online' && r.demand_lots > 0);
    const lot = BigInt(ipo.lot_size);
    const beacon =
      ipo.beacon_source === null || ipo.beacon_round === null || ipo.beacon_randomness === null
        ? null
        : {
            source: ipo.beacon_source,
            round: ipo.beacon_round,
            randomness: ipo.beacon_randomness,
            signature: ipo.beacon_signature,
          };
    return {
      algorithm: beacon === null ? 'bourse-ipo-draw-v1' : IPO_DRAW_ALGORITHM,
      ipoId: ipo.id,
      symbol: ipo.symbol,
      name: ipo.name,
      seedHash: ipo.seed_hash,
      seed: ipo.seed,
      closesAt: ipo.closes_at,
      beacon,
      retailShares: categoryShares(ipo.total_shares, ipo.lot_size, {
        retailPct: ipo.retail_pct,
        niiPct: ipo.nii_pct,
        qibPct: ipo.qib_pct,
      }).retail.toString(),
      lotSize: ipo.lot_size,
      mode: ipo.draw_mode,
      applications: online.map((r) => ({ ref: applicationRef(r.id), lots: r.demand_lots })),
      allotments: online
        .filter((r) => r.allotted_shares > 0n)
        .map((r) => ({ ref: applicationRef(r.id), lots: Number(r.allotted_shares / lot) })),
      drawnAt: ipo.drawn_at,
    };
  }

  // --- the console desk ------------------------------------------------------------------------------

  async #staffView(row: repo.IpoRow): Promise<StaffIpoView> {
    return {
      ...(await this.#view(row)),
      createdBy: row.created_by,
      approvedBy: row.approved_by,
      reviewReason: row.review_reason,
      createdAt: row.created_at,
    };
  }

  async staffList(page: { page: number; limit: number }): Promise<{ items: StaffIpoView[]; total: number }> {
    const { rows, total } = await repo.listIpos(this.#d.db, {
      statuses: [],
      limit: page.limit,
      offset: (page.page - 1) * page.limit,
    });
    return { items: await Promise.all(rows.map((r) => this.#staffView(r))), total };
  }

  async staffInfo(id: number): Promise<StaffIpoView> {
    const row = await repo.findIpo(this.#d.db, id);
    if (!row) throw new AppError('ipo_not_found');
    return this.#staffView(row);
  }

  /** A draft IPO: every figure checked; the dates are the exchange's trading days, listing T+3 after the close. */
  async create(staffId: number, body: CreateIpo): Promise<StaffIpoView> {
    const low = tryParseDecimal(body.priceLow, SCALE);
    const high = tryParseDecimal(body.priceHigh, SCALE);
    if (!low.ok || !high.ok || low.minor <= 0n || high.minor < low.minor)
      throw fieldError('priceLow', 'ipo_band_invalid');
    if (body.retailPct + body.niiPct + body.qibPct !== 100 || body.retailPct === 0)
      throw fieldError('retailPct', 'ipo_split_invalid');
    const total = /^[1-9]\d{0,14}$/.test(body.totalShares) ? BigInt(body.totalShares) : 0n;
    if (total === 0n || total % BigInt(body.lotSize) !== 0n) throw fieldError('totalShares', 'ipo_shares_invalid');
    this.#checkLotValue(BigInt(body.lotSize) * high.minor);
    const now = this.#d.clock.now();
    const { exchange } = body;
    const today = tradingDayOf(exchange, now);
    if (
      !isTradingDay(exchange, body.opensOn) ||
      !isTradingDay(exchange, body.closesOn) ||
      body.opensOn <= today ||
      body.closesOn < body.opensOn
    )
      throw fieldError('opensOn', 'ipo_dates_invalid');
    if (this.#d.isListedStock(exchange, body.symbol) || (await repo.symbolTaken(this.#d.db, exchange, body.symbol)))
      throw fieldError('symbol', 'ipo_symbol_taken');
    const opens = sessionOn(exchange, body.opensOn);
    const closes = sessionOn(exchange, body.closesOn);
    const listing = sessionOn(exchange, addTradingDays(exchange, body.closesOn, 3));
    if (!opens || !closes || !listing) throw fieldError('opensOn', 'ipo_dates_invalid');
    const id = await this.#d.db.transaction(async (tx) => {
      const id = await repo.insertIpo(
        tx,
        {
          issuer: body.issuer,
          exchange,
          symbol: body.symbol,
          name: body.name,
          currency: CURRENCY,
          price_low_minor: low.minor,
          price_high_minor: high.minor,
          lot_size: body.lotSize,
          total_shares: total,
          retail_pct: body.retailPct,
          nii_pct: body.niiPct,
          qib_pct: body.qibPct,
          opens_at: opens.openMs,
          closes_at: closes.closeMs,
          listing_at: listing.openMs,
          note: body.note ?? '',
          created_by: staffId,
        },
        now,
      );
      await audit(tx, staffId, 'ipo.create', id, body.note || 'created', { symbol: body.symbol, exchange }, now);
      return id;
    });
    return this.staffInfo(id);
  }

  /**
   * One lot at the top of the band must cost what the deployment's range says (DOMAIN.md), and never more
   * than the retail ceiling: above it no retail bid could be placed at all.
   */
  #checkLotValue(perLot: bigint): void {
    const { min, max } = this.#d.settings.lotValue;
    const low = tryParseDecimal(min, SCALE);
    const high = tryParseDecimal(max, SCALE);
    if (!low.ok || !high.ok) throw new Error(`ipo lot value range ${min}–${max} is not two amounts`);
    const ceiling = high.minor < RETAIL_MAX_MINOR ? high.minor : RETAIL_MAX_MINOR;
    if (perLot < low.minor || perLot > ceiling)
      throw fieldError('lotSize', 'ipo_lot_value_invalid', (lang) => ({
        min: shown(low.minor, lang),
        max: shown(ceiling, lang),
      }));
  }

  /** The second staff member's decision: published (upcoming) or rejected; never by the creator. */
  async review(staffId: number, id: number, approve: boolean, reason: string): Promise<StaffIpoView> {
    const row = await repo.findIpo(this.#d.db, id);
    if (!row) throw new AppError('ipo_not_found');
    if (row.status !== 'draft') throw new AppError('ipo_not_reviewable');
    if (row.created_by === staffId) throw new AppError('ipo_second_approver');
    const at = this.#d.clock.now();
    // Approved after its opening day has begun: it would open with no notice; refused as stale.
    if (approve && at >= row.opens_at) throw new AppError('ipo_dates_invalid');
    await this.#d.db.transaction(async (tx) => {
      const to = approve ? 'upcoming' : 'rejected';
      if (!(await repo.moveIpo(tx, id, 'draft', to, at, { approved_by: staffId, review_reason: reason })))
        throw new AppError('ipo_not_reviewable');
      await audit(tx, staffId, approve ? 'ipo.approve' : 'ipo.reject', id, reason, { symbol: row.symbol }, at);
    });
    return this.staffInfo(id);
  }

  /** The console's "run listing": only a drawn IPO on or after its listing day. */
  async runListing(staffId: number, id: number, reason: string): Promise<StaffIpoView> {
    const row = await repo.findIpo(this.#d.db, id);
    if (!row) throw new AppError('ipo_not_found');
    if (row.status !== 'allotted' || this.#d.clock.now() < row.listing_at) throw new AppError('ipo_not_listable');
    const run = this.#running.then(() => this.#list(row, staffId, reason));
    this.#running = run.catch(() => undefined);
    await run;
    return this.staffInfo(id);
  }

  /** Start-up: an application whose hold a crash left unsent is re-held, or removed if the engine refuses. */
  async resume(): Promise<void> {
    const open = await repo.listIpos(this.#d.db, { statuses: ['open'], limit: 1000, offset: 0 });
    for (const ipo of open.rows) {
      for (const row of await repo.applicationsOf(this.#d.db, ipo.id, ['applying'])) {
        if (row.channel !== 'online' || row.hold_id !== null) continue;
        const holdId = applicationHoldId(row.id);
        const result =
          this.#d.engine.state.fundsHold(holdId) !== undefined
            ? { ok: true as const }
            : await this.#d.engine.submit({
                type: 'hold_funds',
                id: holdId,
                userId: String(row.user_id),
                wallet: WALLET,
                asset: CURRENCY,
                amount: fmt(row.hold_minor),
                cause: 'allotment',
                link: applicationLink(row.id),
              });
        if (!result.ok) await this.#d.db.transaction((tx) => repo.deleteApplication(tx, row.id));
        else if (!(await repo.setHoldId(this.#d.db, row.id, holdId, row.hold_minor, this.#d.clock.now(), 'applying')))
          await this.#release(holdId);
      }
    }
    // Holds a crash left behind (a cancel moved the row but never released it…), listed IPOs included.
    await this.#sweep(true).catch((error) => this.#d.log(`ipo sweep failed: ${String(error)}`));
    // A failed run is logged and retried by the timer: it must not keep the server from starting.
    await this.tick().catch(() => undefined);
  }
}

function audit(
  tx: Sql,
  staffId: number,
  action: string,
  ipoId: number,
  reason: string,
  detail: Record<string, unknown>,
  at: number,
): Promise<void> {
  // Staff id 0 is the system (paper mode's demo listings): the audit log records it as no staff member.
  return appendAudit(
    tx,
    { staffId: staffId || null, action, targetType: 'ipo', targetId: String(ipoId), reason, detail },
    at,
  );
}
