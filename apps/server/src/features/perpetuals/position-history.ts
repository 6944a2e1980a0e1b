// A perpetual position's life from open to close, for the history tab (perp_positions, migration 26):
// entry and exit averages, the largest size held, realised P&L, fees, funding, and why it closed (closed,
// liquidated, ADL). Projected in the journal's transaction (TradingEngine's alsoProject) from each perpetual
// command's events: position_changed carries the position after every change, so each change's opened or
// closed lots, notional and P&L are its difference from the last (a one-fill flip closes one life and opens
// the next); the trades' fees and the funding transfers go to the life they happened in.
// Must hold: follows from the events alone (no live state); the sums are exact minor units.

import type { Sql } from '@bourse/db';
import type { ApplyResult, Command, EngineEvent } from '@bourse/engine';
import { isMarketMaker } from '../../adapters/venue/quote-ladder.ts';
import type { Applied } from '../../engine-host/engine-host.ts';

export type ClosedReason = 'closed' | 'liquidated' | 'adl';

/** One life, as stored (id undefined until inserted). */
export type Life = {
  id: number | undefined;
  userId: string;
  instrumentId: string;
  side: 'long' | 'short';
  openedAt: number;
  closedAt: number | null;
  reason: ClosedReason | null;
  maxLots: number;
  openLots: number;
  openNotional: bigint;
  closeLots: number;
  closeNotional: bigint;
  realisedPnl: bigint;
  fees: bigint;
  funding: bigint;
  lastSize: number;
  lastEntry: bigint;
  lastRealised: bigint;
};

const REASONS: Record<string, ClosedReason> = { trade: 'closed', liquidation: 'liquidated', adl: 'adl' };
const keyOf = (userId: string, instrumentId: string) => `${userId}\u0000${instrumentId}`;

function newLife(e: Extract<EngineEvent, { type: 'position_changed' }>): Life {
  const lots = Math.abs(e.sizeLots);
  return {
    id: undefined,
    userId: e.userId,
    instrumentId: e.instrumentId,
    side: e.sizeLots > 0 ? 'long' : 'short',
    openedAt: e.timeMs,
    closedAt: null,
    reason: null,
    maxLots: lots,
    openLots: lots,
    openNotional: e.entryNotional,
    closeLots: 0,
    closeNotional: 0n,
    realisedPnl: 0n,
    fees: 0n,
    funding: 0n,
    lastSize: e.sizeLots,
    lastEntry: e.entryNotional,
    lastRealised: e.realisedPnl,
  };
}

/**
 * Lives changed by a run of commands' events. `open(user, instrument)` answers the stored open life (the
 * caller loads them first); every life touched, open or closed, is in `touched` to be written.
 */
export class Lives {
  readonly touched = new Set<Life>();
  readonly #open = new Map<string, Life>();
  /** The life each key's last event ended in, open or just closed: where that command's fees go. */
  readonly #last = new Map<string, Life>();

  constructor(stored: readonly Life[]) {
    for (const life of stored) this.#open.set(keyOf(life.userId, life.instrumentId), life);
  }

  /** One command's events, in order. `perpetual(id)`: whether the instrument is a perpetual. */
  apply(events: readonly EngineEvent[], perpetual: (instrumentId: string) => boolean, fundingOf?: string): void {
    const fees = new Map<string, bigint>();
    const funding = new Map<string, bigint>();
    const add = (map: Map<string, bigint>, key: string, amount: bigint) => map.set(key, (map.get(key) ?? 0n) + amount);
    this.#last.clear();
    for (const e of events) {
      if (e.type === 'position_changed') this.#change(e);
      else if (e.type === 'trade' && perpetual(e.instrumentId)) {
        add(fees, keyOf(e.takerUserId, e.instrumentId), e.takerFee);
        add(fees, keyOf(e.makerUserId, e.instrumentId), e.makerFee);
      } else if (e.type === 'transfer_posted' && e.cause === 'funding' && fundingOf !== undefined) {
        const userId = e.transferId.slice(e.link.length + 1);
        add(funding, keyOf(userId, fundingOf), e.debit.startsWith('platform:') ? e.amount : -e.amount);
      }
    }
    for (const [key, amount] of fees) this.#charge(key, (life) => (life.fees += amount));
    for (const [key, amount] of funding) this.#charge(key, (life) => (life.funding += amount));
  }

  #charge(key: string, change: (life: Life) => void): void {
    const life = this.#last.get(key) ?? this.#open.get(key);
    if (life === undefined) return;
    change(life);
    this.touched.add(life);
  }

  #change(e: Extract<EngineEvent, { type: 'position_changed' }>): void {
    const key = keyOf(e.userId, e.instrumentId);
    let life = this.#open.get(key);
    if (life === undefined) {
      // A position opening (or one older than this history: it starts from what it is now).
      if (e.sizeLots === 0) return;
      life = newLife(e);
      this.#open.set(key, life);
    } else {
      const before = life.lastSize;
      const sameSide = Math.sign(e.sizeLots) === Math.sign(before);
      if (sameSide && Math.abs(e.sizeLots) >= Math.abs(before)) {
        life.openLots += Math.abs(e.sizeLots) - Math.abs(before);
        life.openNotional += e.entryNotional - life.lastEntry;
        life.maxLots = Math.max(life.maxLots, Math.abs(e.sizeLots));
      } else {
        // Reduced, closed or flipped: the closed part's exit notional is its entry share plus (long) or
        // minus (short) the P&L it realised.
        const closed = Math.abs(before) - (sameSide ? Math.abs(e.sizeLots) : 0);
        const entryPart = sameSide ? life.lastEntry - e.entryNotional : life.lastEntry;
        const pnl = e.realisedPnl - life.lastRealised;
        life.closeLots += closed;
        life.closeNotional += before > 0 ? entryPart + pnl : entryPart - pnl;
        life.realisedPnl += pnl;
      }
      life.lastSize = e.sizeLots;
      life.lastEntry = e.entryNotional;
      life.lastRealised = e.realisedPnl;
      if (!sameSide) {
        life.closedAt = e.timeMs;
        life.reason = REASONS[e.reason] ?? 'closed';
        this.touched.add(life);
        this.#last.set(key, life);
        this.#open.delete(key);
        if (e.sizeLots === 0) return;
        // A flip in one fill: the rest opens the next life.
        life = newLife(e);
        this.#open.set(key, life);
      }
    }
    this.touched.add(life);
    this.#last.set(key, life);
  }
}

type LifeRow = {
  id: number;
  user_id: string;
  instrument_id: string;
  side: 'long' | 'short';
  opened_at: number;
  closed_at: number | null;
  reason: ClosedReason | null;
  max_lots: number;
  open_lots: number;
  open_notional: string;
  close_lots: number;
  close_notional: string;
  realised_pnl: string;
  fees: string;
  funding: string;
  last_size: number;
  last_entry: string;
  last_realised: string;
};

const lifeOf = (r: LifeRow): Life => ({
  id: Number(r.id),
  userId: r.user_id,
  instrumentId: r.instrument_id,
  side: r.side,
  openedAt: Number(r.opened_at),
  closedAt: r.closed_at === null ? null : Number(r.closed_at),
  reason: r.reason,
  maxLots: Number(r.max_lots),
  openLots: Number(r.open_lots),
  openNotional: BigInt(r.open_notional),
  closeLots: Number(r.close_lots),
  closeNotional: BigInt(r.close_notional),
  realisedPnl: BigInt(r.realised_pnl),
  fees: BigInt(r.fees),
  funding: BigInt(r.funding),
  lastSize: Number(r.last_size),
  lastEntry: BigInt(r.last_entry),
  lastRealised: BigInt(r.last_realised),
});

const COLUMNS =
  'user_id, instrument_id, side, opened_at, closed_at, reason, max_lots, open_lots, open_notional, close_lots, close_notional, realised_pnl, fees, funding, last_size, last_entry, last_realised';

const valuesOf = (l: Life) => [
  l.userId,
  l.instrumentId,
  l.side,
  l.openedAt,
  l.closedAt,
  l.reason,
  l.maxLots,
  l.openLots,
  l.openNotional.toString(),
  l.closeLots,
  l.closeNotional.toString(),
  l.realisedPnl.toString(),
  l.fees.toString(),
  l.funding.toString(),
  l.lastSize,
  l.lastEntry.toString(),
  l.lastRealised.toString(),
];

/**
 * The batch's position lives (a projector for TradingEngine's alsoProject): only commands naming one of
 * the `perpetuals` are read (their events made), so spot and stock commands cost one set lookup; the
 * disclosed liquidity accounts keep no history (they are not customers).
 */
export function positionHistoryProjector(perpetuals: ReadonlySet<string>) {
  const perpetual = (id: string) => perpetuals.has(id);
  return async (
    tx: Sql,
    batch: readonly Applied<Command, ApplyResult>[],
    previousCommitted: Promise<void>,
  ): Promise<void> => {
    const runs: { events: EngineEvent[]; fundingOf: string | undefined }[] = [];
    const users = new Set<string>();
    const instruments = new Set<string>();
    for (const { command, result, repeat } of batch) {
      const instrumentId = (command as { instrumentId?: unknown }).instrumentId;
      if (repeat || !result.ok || typeof instrumentId !== 'string' || !perpetuals.has(instrumentId)) continue;
      const events = result.events.filter(
        (e) => !('userId' in e) || (typeof e.userId === 'string' && !isMarketMaker(e.userId)),
      );
      // A command that changed no customer's position (a quote placed or withdrawn) adds nothing.
      if (!events.some((e) => e.type === 'position_changed')) continue;
      for (const e of events) if (e.type === 'position_changed') users.add(e.userId);
      instruments.add(instrumentId);
      runs.push({ events, fundingOf: command.type === 'apply_funding' ? instrumentId : undefined });
    }
    if (users.size === 0) return;
    // A life the batch before inserted is readable once that batch committed (PostgreSQL runs this one
    // beside its COMMIT): else it would be opened twice.
    await previousCommitted;
    const userList = [...users];
    const instrumentList = [...instruments];
    const list = (from: number, n: number) => Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');
    const stored = await tx.query<LifeRow>(
      `SELECT id, ${COLUMNS} FROM perp_positions
       WHERE closed_at IS NULL AND user_id IN (${list(1, userList.length)})
         AND instrument_id IN (${list(userList.length + 1, instrumentList.length)})`,
      [...userList, ...instrumentList],
    );
    const lives = new Lives(stored.map(lifeOf));
    for (const { events, fundingOf } of runs) lives.apply(events, perpetual, fundingOf);
    for (const life of lives.touched) {
      const values = valuesOf(life);
      if (life.id === undefined) {
        await tx.run(`INSERT INTO perp_positions (${COLUMNS}) VALUES (${list(1, values.length)})`, values);
      } else {
        const sets = COLUMNS.split(', ')
          .map((column, i) => `${column} = $${i + 1}`)
          .join(', ');
        await tx.run(`UPDATE perp_positions SET ${sets} WHERE id = $${values.length + 1}`, [...values, life.id]);
      }
    }
  };
}
