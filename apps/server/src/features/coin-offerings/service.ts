// Coin offerings (the launchpad, PRODUCT.md "Coin offerings"): staff create an offering (a cap of coins at
// a USDT price, a subscription window, per-customer minimum and maximum) and a DIFFERENT staff member
// approves or rejects it, each action audited. In its window a customer commits USDT: a hold_funds on the
// spot wallet (cause allotment, link coin-commitment:<id>), cancellable until the close (void_hold). At the
// close (settleDue, run with the market pump) the coin is registered as an engine asset, the allotment is
// computed pro rata (allotment.ts) once and stored, then settled from the stored rows in one
// settle_allotment per 5,000 commitments (pays the issuer, delivers the coins to the spot wallet, releases
// the rest of each hold), then the coin is listed with its USDT pair (features/listings). Every engine id is
// derived from a row, so a restart re-sends the same commands (decision 0033, amendment). Must not: let
// anyone choose who gets what; promise an allotment or a return; leave a hold live after the close.

import type {
  ApplyCoinOfferingInput,
  CoinCommitmentView,
  CoinOfferingPhase,
  CoinOfferingView,
  CreateCoinOfferingInput,
  StaffCoinCommitmentView,
  StaffCoinOfferingView,
} from '@bourse/contract';
import type { Db, Sql } from '@bourse/db';
import { ALLOTMENT_BATCH_MAX, type AllotmentEntry } from '@bourse/engine';
import { newCoinInstrument } from '@bourse/market';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import * as accountsRepo from '../accounts/repo.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Listings } from '../listings/service.ts';
import { appendAudit } from '../staff/audit.ts';
import { allot, unitPriceIsExact } from './allotment.ts';
import * as repo from './repo.ts';

const USDT = 'USDT';
const USDT_SCALE = 6;
/** The platform account the launchpad's coins come from and the USDT paid for them goes to. */
export const LAUNCHPAD_ISSUER = 'issuer:launchpad' as const;
/** A commitment's funds hold: its id is the row's, so a retry after a crash is the same command. */
export const commitmentHoldId = (id: number) => `coin-commitment:${id}`;
/** Offerings a customer can see (the others wait for, or failed, a second staff member's approval). */
const PUBLISHED = ['approved', 'allotted', 'listed'] as const;

const usdt = (minor: bigint) => formatDecimal(minor, USDT_SCALE);
const USDT_UNIT = 1_000_000n;

export class CoinOfferings {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #clock: Clock;
  readonly #accounts: Accounts;
  readonly #listings: Listings;
  readonly #batchMax: number;
  #settling = false;

  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    clock: Clock;
    accounts: Accounts;
    listings: Listings;
    /** Commitments per settle_allotment; tests set it small to exercise the multi-batch path without 5,000 customers. */
    batchMax?: number;
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#clock = deps.clock;
    this.#accounts = deps.accounts;
    this.#listings = deps.listings;
    const batchMax = deps.batchMax ?? ALLOTMENT_BATCH_MAX;
    if (!Number.isInteger(batchMax) || batchMax < 1 || batchMax > ALLOTMENT_BATCH_MAX)
      throw new RangeError(`batchMax must be an integer from 1 to ${ALLOTMENT_BATCH_MAX}, not ${batchMax}`);
    this.#batchMax = batchMax;
  }

  // --- what customers read -------------------------------------------------------------------------

  phaseOf(row: repo.OfferingRow, now = this.#clock.now()): CoinOfferingPhase {
    if (row.status === 'listed') return 'listed';
    if (row.status === 'allotted') return 'allotted';
    if (now < row.opens_at) return 'upcoming';
    return now < row.closes_at ? 'open' : 'closed';
  }

  /**
   * Published offerings: `all` (open first, then upcoming, then finished), `coming` (not yet open) or
   * `today` (open for subscriptions now).
   */
  async list(
    userId: number | null,
    which: 'all' | 'coming' | 'today',
    page: { page: number; limit: number },
  ): Promise<{ items: CoinOfferingView[]; total: number }> {
    const now = this.#clock.now();
    const rank: Record<CoinOfferingPhase, number> = { open: 0, upcoming: 1, closed: 2, allotted: 3, listed: 4 };
    const rows = (await repo.listOfferings(this.#db, PUBLISHED))
      .filter((r) => {
        const phase = this.phaseOf(r, now);
        return which === 'all' || (which === 'coming' ? phase === 'upcoming' : phase === 'open');
      })
      .sort((a, b) => rank[this.phaseOf(a, now)] - rank[this.phaseOf(b, now)]);
    const slice = rows.slice((page.page - 1) * page.limit, page.page * page.limit);
    const mine =
      userId === null
        ? []
        : await repo.latestCommitmentsOf(
            this.#db,
            userId,
            slice.map((r) => r.id),
          );
    return {
      items: slice.map((r) => this.#view(r, mine.find((c) => c.offering_id === r.id) ?? null, now)),
      total: rows.length,
    };
  }

  async info(userId: number | null, id: number): Promise<CoinOfferingView> {
    const row = await this.#published(id);
    const mine = userId === null ? [] : await repo.latestCommitmentsOf(this.#db, userId, [id]);
    return this.#view(row, mine[0] ?? null, this.#clock.now());
  }

  async myCommitments(userId: number, page: { page: number; limit: number }) {
    const { rows, total } = await repo.listCommitmentsOfUser(
      this.#db,
      userId,
      page.limit,
      (page.page - 1) * page.limit,
    );
    const offerings = new Map<number, repo.OfferingRow>();
    for (const row of rows) {
      if (!offerings.has(row.offering_id)) {
        offerings.set(row.offering_id, (await repo.findOffering(this.#db, row.offering_id)) as repo.OfferingRow);
      }
    }
    return {
      items: rows.map((c) => commitmentView(c, offerings.get(c.offering_id) as repo.OfferingRow)),
      total,
    };
  }

  // --- what customers do ---------------------------------------------------------------------------

  /** Commits USDT to an open offering: checked, then held in the spot wallet under the new row's id. */
  async apply(userId: number, input: ApplyCoinOfferingInput): Promise<CoinCommitmentView> {
    const offering = await this.#published(Number(input.id));
    if (this.phaseOf(offering) !== 'open') throw new AppError('coin_offering_not_open');
    const parsed = tryParseDecimal(input.amount, USDT_SCALE);
    if (!parsed.ok || parsed.minor <= 0n) throw fieldError('amount', 'invalid_amount');
    const amount = parsed.minor;
    const min = minorOf(offering.min_commit, USDT_SCALE);
    const max = minorOf(offering.max_commit, USDT_SCALE);
    if (amount < min)
      throw fieldError('amount', 'coin_commitment_below_minimum', () => ({ min: trimPrice(offering.min_commit) }));
    if (amount > max)
      throw fieldError('amount', 'coin_commitment_above_maximum', () => ({ max: trimPrice(offering.max_commit) }));
    const user = await accountsRepo.findUserById(this.#db, userId);
    if (!user) throw new AppError('session_invalid');
    await this.#accounts.checkPin(user, 'trade', input.password);
    if (await repo.liveCommitmentOf(this.#db, offering.id, userId)) throw new AppError('coin_commitment_exists');
    // Short funds are refused before any row or command, so the request changes nothing.
    if (this.#engine.state.balance(String(userId), 'spot', USDT).available < amount) {
      throw fieldError('amount', 'subscription_funds');
    }
    return this.#commit(offering, userId, amount);
  }

  /**
   * The commitment's row, then its hold (the row's id names it, so a re-send is the same command). `at` is
   * now, except for the demo seeding's commitment to an offering already past its window.
   */
  async #commit(
    offering: repo.OfferingRow,
    userId: number,
    amount: bigint,
    at = this.#clock.now(),
  ): Promise<CoinCommitmentView> {
    const id = await this.#db.transaction(async (tx) => {
      const id = await repo.insertCommitment(tx, { offeringId: offering.id, userId, amount: usdt(amount), at });
      if (id !== undefined) await this.#refreshTotal(tx, offering.id);
      return id;
    });
    // Closed (or allotted) since the window was checked: nothing is recorded or held.
    if (id === undefined) throw new AppError('coin_offering_not_open');
    const held = await this.#engine.submit({
      type: 'hold_funds',
      id: commitmentHoldId(id),
      userId: String(userId),
      wallet: 'spot',
      asset: USDT,
      amount: usdt(amount),
      cause: 'allotment',
      link: commitmentHoldId(id),
    });
    if (!held.ok) {
      // Funds spent in between (another order): the commitment never held anything; it is withdrawn.
      await this.#db.transaction(async (tx) => {
        await repo.moveCommitment(tx, { id, from: 'subscribed', to: 'cancelled', at, refunded: '0' });
        await this.#refreshTotal(tx, offering.id);
      });
      throw fieldError('amount', result(held.code));
    }
    // The allotment may have read the commitments while this hold was in flight: if it was stored without
    // this one, the hold is released at once (the job's sweep does the same after a crash).
    const row = (await repo.findCommitment(this.#db, id)) as repo.CommitmentRow;
    if ((await repo.findOffering(this.#db, offering.id))?.allocated_at != null && row.alloc_coins === null) {
      await this.#releaseUncounted(row);
    }
    return commitmentView((await repo.findCommitment(this.#db, id)) as repo.CommitmentRow, offering);
  }

  /** Cancels a live commitment before the close: its hold is released (void_hold), all of it. */
  async cancel(userId: number, commitmentId: number): Promise<CoinCommitmentView> {
    const row = await repo.findCommitment(this.#db, commitmentId);
    if (!row || row.user_id !== userId) throw new AppError('coin_commitment_not_found');
    const offering = (await repo.findOffering(this.#db, row.offering_id)) as repo.OfferingRow;
    if (row.status !== 'subscribed' || this.phaseOf(offering) !== 'open') {
      throw new AppError('coin_commitment_not_cancellable');
    }
    // The row first, only while the offering is still open: a hold the allotment has counted is never
    // voided under it (its settlement batch would be refused). Should the void then fail, the hold is
    // left out of the allotment and the job's sweep releases it.
    const cancelled = await this.#db.transaction(async (tx) => {
      const moved = await repo.cancelWhileOpen(tx, { id: row.id, at: this.#clock.now(), refunded: row.amount });
      if (moved) await this.#refreshTotal(tx, row.offering_id);
      return moved;
    });
    if (!cancelled) throw new AppError('coin_commitment_not_cancellable');
    const holdId = commitmentHoldId(row.id);
    if (this.#engine.state.fundsHold(holdId)) {
      const voided = await this.#engine.submit({ type: 'void_hold', id: `${holdId}:cancel`, holdId });
      if (!voided.ok && this.#engine.state.fundsHold(holdId)) {
        throw new Error(`coin commitment ${row.id}: void refused (${voided.code})`);
      }
    }
    return commitmentView((await repo.findCommitment(this.#db, row.id)) as repo.CommitmentRow, offering);
  }

  // --- the console ---------------------------------------------------------------------------------

  async create(staffId: number, input: CreateCoinOfferingInput): Promise<StaffCoinOfferingView> {
    const now = this.#clock.now();
    if (input.opensAt <= now || input.closesAt <= input.opensAt) throw new AppError('coin_offering_window_invalid');
    const scale = input.scale;
    const price = minorOf(input.price, USDT_SCALE, 'price');
    const cap = minorOf(input.cap, scale, 'cap');
    const unit = minorOf(input.unit, scale, 'unit');
    const min = minorOf(input.minCommit, USDT_SCALE, 'minCommit');
    const max = minorOf(input.maxCommit, USDT_SCALE, 'maxCommit');
    const onGrid = (() => {
      try {
        newCoinInstrument({ symbol: input.symbol, name: input.name, scale, startPrice: input.price });
        return true;
      } catch {
        return false;
      }
    })();
    if (
      price <= 0n ||
      unit <= 0n ||
      cap < unit ||
      cap % unit !== 0n ||
      min <= 0n ||
      min > max ||
      !onGrid ||
      !unitPriceIsExact({ priceMinor: price, unitMinor: unit, scale })
    ) {
      throw new AppError('coin_offering_terms_invalid');
    }
    if (this.#engine.state.asset(input.symbol) || (await repo.symbolTaken(this.#db, input.symbol))) {
      throw fieldError('symbol', 'coin_offering_symbol_taken');
    }
    const id = await this.#db.transaction(async (tx) => {
      const id = await repo.insertOffering(tx, {
        symbol: input.symbol,
        name: input.name,
        scale,
        price: usdt(price),
        cap: formatDecimal(cap, scale),
        unit: formatDecimal(unit, scale),
        min_commit: usdt(min),
        max_commit: usdt(max),
        opens_at: input.opensAt,
        closes_at: input.closesAt,
        summary: input.summary,
        created_by: staffId,
        created_at: now,
      });
      await repo.recordCreated(tx, { id, staffId, reason: input.reason, at: now });
      await appendAudit(
        tx,
        {
          staffId,
          action: 'coin_offering.create',
          targetType: 'coin_offering',
          targetId: String(id),
          reason: input.reason,
          detail: {
            symbol: input.symbol,
            price: usdt(price),
            cap: input.cap,
            opensAt: input.opensAt,
            closesAt: input.closesAt,
          },
        },
        now,
      );
      return id;
    });
    return this.staffView(id);
  }

  /** A different staff member approves (it is published) or rejects it, before it opens. */
  async decide(
    staffId: number,
    id: number,
    decision: 'approve' | 'reject',
    reason: string,
  ): Promise<StaffCoinOfferingView> {
    const row = await repo.findOffering(this.#db, id);
    if (!row) throw new AppError('coin_offering_not_found');
    if (row.status !== 'pending_approval') throw new AppError('coin_offering_already_decided');
    if (row.created_by === staffId) throw new AppError('coin_offering_same_staff');
    const at = this.#clock.now();
    const to = decision === 'approve' ? 'approved' : 'rejected';
    await this.#db.transaction(async (tx) => {
      const moved = await repo.moveOffering(tx, {
        id,
        from: 'pending_approval',
        to,
        at,
        staffId,
        reason,
        set: decision === 'approve' ? { approved_by: staffId } : { reason },
      });
      if (!moved) throw new AppError('coin_offering_already_decided');
      await appendAudit(
        tx,
        {
          staffId,
          action: `coin_offering.${decision}`,
          targetType: 'coin_offering',
          targetId: String(id),
          reason,
          detail: { symbol: row.symbol },
        },
        at,
      );
    });
    return this.staffView(id);
  }

  async staffList(): Promise<StaffCoinOfferingView[]> {
    const rows = await repo.listOfferings(this.#db, ['pending_approval', 'approved', 'rejected', 'allotted', 'listed']);
    return Promise.all(rows.map((r) => this.staffView(r.id)));
  }

  async staffView(id: number): Promise<StaffCoinOfferingView> {
    const row = await repo.findOffering(this.#db, id);
    if (!row) throw new AppError('coin_offering_not_found');
    const { mine: _, ...view } = this.#view(row, null, this.#clock.now());
    const commitments = await repo.listCommitmentsOfOffering(this.#db, id);
    return {
      ...view,
      status: row.status,
      scale: row.scale,
      reason: row.reason,
      createdBy: row.created_by,
      createdByName: row.created_by_name,
      approvedBy: row.approved_by,
      approvedByName: row.approved_by_name,
      subscribers: new Set(commitments.filter((c) => c.status !== 'cancelled').map((c) => c.user_id)).size,
    };
  }

  /** Every commitment of an offering with its outcome (read-only: nothing here sets who gets what). */
  async staffCommitments(id: number): Promise<StaffCoinCommitmentView[]> {
    const row = await repo.findOffering(this.#db, id);
    if (!row) throw new AppError('coin_offering_not_found');
    return (await repo.listCommitmentsOfOffering(this.#db, id)).map((c) => ({
      ...commitmentView(c, row),
      userId: c.user_id,
    }));
  }

  // --- paper mode's demo launchpad ----------------------------------------------------------------

  /**
   * Paper mode, first start only: one finished offering (the demo customer committed 500 USDT; allotted
   * and listed at the next pump), one open, one upcoming. Created by the demo administrator; there is no
   * second staff member yet, so the approval is recorded as the seeding's, with that reason.
   */
  async seedDemo(staffId: number, demoUserId: number): Promise<void> {
    if (
      (await repo.listOfferings(this.#db, ['pending_approval', 'approved', 'rejected', 'allotted', 'listed'])).length >
      0
    ) {
      return;
    }
    const now = this.#clock.now();
    const day = 86_400_000;
    const risk =
      'Virtual coins on a paper-trading platform. A new coin can lose most or all of its value, and an oversubscribed offering allots only part of what you commit (the rest is returned at the close).';
    const demos = [
      {
        symbol: 'LUMA',
        name: 'Lumen Network',
        price: '0.050000',
        cap: '2000000',
        unit: '1',
        min: '10',
        max: '1000',
        opens: now - 3 * day,
        closes: now - day,
        what: 'Lumen Network is a demo coin for a data-sharing network.',
      },
      {
        symbol: 'ORBT',
        name: 'Orbit Protocol',
        price: '0.200000',
        cap: '500000',
        unit: '1',
        min: '20',
        max: '2000',
        opens: now - 3_600_000,
        closes: now + 7 * day,
        what: 'Orbit Protocol is a demo coin for a payments protocol.',
      },
      {
        symbol: 'TERA',
        name: 'Terrace',
        price: '1.500000',
        cap: '100000',
        unit: '0.1',
        min: '50',
        max: '5000',
        opens: now + 3 * day,
        closes: now + 10 * day,
        what: 'Terrace is a demo coin for a property-records project.',
      },
    ];
    for (const demo of demos) {
      const id = await this.#db.transaction(async (tx) => {
        const id = await repo.insertOffering(tx, {
          symbol: demo.symbol,
          name: demo.name,
          scale: 8,
          price: demo.price,
          cap: `${demo.cap}.00000000`,
          unit: formatDecimal(minorOf(demo.unit, 8), 8),
          min_commit: usdt(minorOf(demo.min, USDT_SCALE)),
          max_commit: usdt(minorOf(demo.max, USDT_SCALE)),
          opens_at: demo.opens,
          closes_at: demo.closes,
          summary: `${demo.what} ${risk}`,
          created_by: staffId,
          created_at: now,
        });
        const reason = 'Paper mode: demo offering seeded at the first start';
        await repo.recordCreated(tx, { id, staffId, reason, at: now });
        await repo.moveOffering(tx, { id, from: 'pending_approval', to: 'approved', at: now, staffId: null, reason });
        return id;
      });
      if (demo.symbol === 'LUMA') {
        const offering = (await repo.findOffering(this.#db, id)) as repo.OfferingRow;
        // Made when the window opened, so the insert's open-window check holds.
        await this.#commit(offering, demoUserId, USDT_UNIT * 500n, demo.opens);
      }
    }
  }

  // --- the close -----------------------------------------------------------------------------------

  /** Allots every offering whose window has closed and lists its coin; run with the market pump. */
  async settleDue(): Promise<void> {
    if (this.#settling) return;
    this.#settling = true;
    try {
      for (const row of await repo.listDue(this.#db, this.#clock.now())) {
        if (row.status === 'approved') await this.#allot(row);
        await this.#sweep(row.id);
        await this.#list(row.id);
      }
    } finally {
      this.#settling = false;
    }
  }

  /**
   * The allotment, in three steps that each survive a crash: (1) computed once from the commitments whose
   * hold is live and stored (each one's coins, payment, refund and the offering's allocated_at) before any
   * command; (2) settled from those stored rows in batches of ALLOTMENT_BATCH_MAX, a batch being done when
   * its holds are gone (settle_allotment consumes them), so a rerun sends only what is left, under ids fixed
   * by each batch's first commitment; (3) the commitments and the offering moved to their outcomes.
   */
  async #allot(offering: repo.OfferingRow): Promise<void> {
    await this.#listings.registerCoinAsset(offering.symbol, offering.scale);
    if (offering.allocated_at === null) await this.#allocate(offering);
    const counted = (await repo.listCommitmentsOfOffering(this.#db, offering.id)).filter(
      (c) => c.status === 'subscribed' && c.alloc_coins !== null,
    );
    const pending = counted.filter((c) => this.#engine.state.fundsHold(commitmentHoldId(c.id)));
    for (let start = 0; start < pending.length; start += this.#batchMax) {
      const batch = pending.slice(start, start + this.#batchMax);
      const entries: AllotmentEntry[] = batch.map((c) => [
        commitmentHoldId(c.id),
        c.alloc_pay as string,
        c.alloc_coins as string,
      ]);
      const commandId = `coin-offering:${offering.id}:allot:${batch[0]?.id}`;
      const settled = await this.#engine.submit({
        type: 'settle_allotment',
        id: commandId,
        to: LAUNCHPAD_ISSUER,
        asset: offering.symbol,
        wallet: 'spot',
        lock: false,
        entries,
        link: `coin-offering:${offering.id}`,
      });
      // A re-send of a batch that went through is refused, and its holds are gone: done.
      if (!settled.ok && entries.some(([holdId]) => this.#engine.state.fundsHold(holdId))) {
        throw new Error(`coin offering ${offering.id}: ${commandId} refused (${settled.code})`);
      }
    }
    const at = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      let sold = 0n;
      for (const c of counted) {
        const coins = minorOf(c.alloc_coins as string, offering.scale);
        sold += coins;
        await repo.moveCommitment(tx, {
          id: c.id,
          from: 'subscribed',
          to: coins > 0n ? 'allotted' : 'not_allotted',
          at,
          allotted: c.alloc_coins as string,
          paid: c.alloc_pay as string,
          refunded: c.alloc_refund as string,
        });
      }
      await repo.moveOffering(tx, {
        id: offering.id,
        from: 'approved',
        to: 'allotted',
        at,
        staffId: null,
        reason: 'pro-rata allotment at the close',
        set: { sold: formatDecimal(sold, offering.scale) },
      });
    });
  }

  /** Computes the pro-rata allotment of the commitments holding funds now and stores it, once. */
  async #allocate(offering: repo.OfferingRow): Promise<void> {
    const terms = {
      priceMinor: minorOf(offering.price, USDT_SCALE),
      capMinor: minorOf(offering.cap, offering.scale),
      unitMinor: minorOf(offering.unit, offering.scale),
      scale: offering.scale,
    };
    await this.#db.transaction(async (tx) => {
      // A commitment whose hold never happened (a crash, or still in flight) holds nothing: not counted.
      const held = (await repo.listCommitmentsOfOffering(tx, offering.id)).filter(
        (c) => c.status === 'subscribed' && this.#engine.state.fundsHold(commitmentHoldId(c.id)),
      );
      const outcome = allot(
        held.map((c) => minorOf(c.amount, USDT_SCALE)),
        terms,
      );
      await repo.storeAllocation(
        tx,
        offering.id,
        this.#clock.now(),
        held.map((c, k) => {
          const o = outcome[k] as (typeof outcome)[number];
          return { id: c.id, coins: formatDecimal(o.coins, offering.scale), pay: usdt(o.pay), refund: usdt(o.refund) };
        }),
      );
    });
  }

  /**
   * After the allotment is stored: every commitment it did not count (inserted or held while it ran, or
   * whose hold was lost to a crash) gets its hold released, if any, and ends not allotted.
   */
  async #sweep(offeringId: number): Promise<void> {
    const offering = await repo.findOffering(this.#db, offeringId);
    if (offering?.allocated_at == null) return;
    for (const c of await repo.listCommitmentsOfOffering(this.#db, offeringId)) {
      if (c.alloc_coins === null) await this.#releaseUncounted(c);
    }
  }

  /** A commitment left out of the stored allotment: its live hold voided (all refunded), then not allotted. */
  async #releaseUncounted(c: repo.CommitmentRow): Promise<void> {
    const holdId = commitmentHoldId(c.id);
    const live = this.#engine.state.fundsHold(holdId) !== undefined;
    if (live) {
      const voided = await this.#engine.submit({ type: 'void_hold', id: `${holdId}:release`, holdId });
      if (!voided.ok && this.#engine.state.fundsHold(holdId)) {
        throw new Error(`coin commitment ${c.id}: release refused (${voided.code})`);
      }
    }
    const moved = await repo.moveCommitment(this.#db, {
      id: c.id,
      from: 'subscribed',
      to: 'not_allotted',
      at: this.#clock.now(),
      refunded: live ? c.amount : '0',
    });
    // Swept before its hold landed (recorded as holding nothing): what was just released is its refund.
    if (live && !moved) await repo.markUncountedRefund(this.#db, c.id, c.amount);
  }

  async #list(id: number): Promise<void> {
    const offering = (await repo.findOffering(this.#db, id)) as repo.OfferingRow;
    if (offering.status !== 'allotted') return;
    const instrument = await this.#listings.listCoin(
      { symbol: offering.symbol, name: offering.name, scale: offering.scale, startPrice: trimPrice(offering.price) },
      `coin-offering:${id}`,
    );
    await this.#db.transaction((tx) =>
      repo.moveOffering(tx, {
        id,
        from: 'allotted',
        to: 'listed',
        at: this.#clock.now(),
        staffId: null,
        reason: 'listed on the spot market',
        set: { instrument_id: instrument.id },
      }),
    );
  }

  // --- helpers -------------------------------------------------------------------------------------

  async #published(id: number): Promise<repo.OfferingRow> {
    const row = await repo.findOffering(this.#db, id);
    if (!row || !(PUBLISHED as readonly string[]).includes(row.status)) throw new AppError('coin_offering_not_found');
    return row;
  }

  async #refreshTotal(tx: Sql, offeringId: number): Promise<void> {
    const amounts = await repo.sumLive(tx, offeringId);
    const total = amounts.reduce((sum, a) => sum + minorOf(a, USDT_SCALE), 0n);
    await repo.setCommittedTotal(tx, offeringId, usdt(total));
  }

  #view(row: repo.OfferingRow, mine: repo.CommitmentRow | null, now: number): CoinOfferingView {
    return {
      id: row.id,
      symbol: row.symbol,
      name: row.name,
      summary: row.summary,
      price: row.price,
      cap: row.cap,
      unit: row.unit,
      minCommit: row.min_commit,
      maxCommit: row.max_commit,
      opensAt: row.opens_at,
      closesAt: row.closes_at,
      phase: this.phaseOf(row, now),
      committed: row.committed_total === '0' ? usdt(0n) : row.committed_total,
      sold: row.sold === '0' ? formatDecimal(0n, row.scale) : row.sold,
      pair: row.instrument_id ? `${row.symbol}USDT` : null,
      mine: mine ? commitmentView(mine, row) : null,
    };
  }
}

function commitmentView(c: repo.CommitmentRow, offering: repo.OfferingRow): CoinCommitmentView {
  return {
    id: c.id,
    offeringId: c.offering_id,
    symbol: offering.symbol,
    name: offering.name,
    price: offering.price,
    amount: c.amount,
    status: c.status,
    allotted: c.allotted === '0' ? formatDecimal(0n, offering.scale) : c.allotted,
    paid: c.paid === '0' ? usdt(0n) : c.paid,
    refunded: c.refunded === '0' ? usdt(0n) : c.refunded,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  };
}

/** A stored decimal at its scale (stored values are valid), or a field's invalid_amount for input. */
function minorOf(text: string, scale: number, field?: string): bigint {
  const parsed = tryParseDecimal(text, scale);
  if (!parsed.ok) throw field ? fieldError(field, 'invalid_amount') : new Error(`bad stored decimal ${text}`);
  return parsed.minor;
}

/** A stored decimal without trailing zeros ("0.100000" → "0.1", "10.000000" → "10"). */
function trimPrice(price: string): string {
  return price.includes('.') ? price.replace(/0+$/, '').replace(/\.$/, '') : price;
}

/** An engine refusal of a hold as the customer's error: short funds read as SPEC's subscription message. */
function result(code: string): 'subscription_funds' | 'internal_error' {
  return code === 'insufficient_funds' || code === 'insufficient_balance' ? 'subscription_funds' : 'internal_error';
}
