// Owns settlement locks (T+1, D+2): what a buyer received in a trade of a `lockBoughtUntilSettled`
// instrument stays held on their base account until the host's calendar sends `settle_trades`.
// Must hold: per (user, instrument) the locks sum to at most the base balance (they are ledger holds);
// locks are released in trade id order, exactly once. Must not: decide WHEN a trade settles.

import { type CommandBase, defineFamily } from './command-family.ts';
import type {
  ApplyResult,
  EngineState,
  InstrumentState,
  OrderRecord,
  SettlementLock,
  UserState,
} from './engine-state.ts';
import type { EngineEvent } from './events.ts';
import type { Account } from './ledger.ts';

/**
 * Releases the settlement holds of every trade of the instrument with trade id <= upToTradeId (the
 * host's calendar decides when a trade has settled). Repeating it, or nothing to release, is ok.
 */
export type SettleTrades = CommandBase & { type: 'settle_trades'; instrumentId: string; upToTradeId: number };

export function settlementHoldId(instrumentId: string, tradeId: number): string {
  return `settle:${instrumentId}:${tradeId}`;
}

/** Holds `qtyMinor` just credited to the buyer's base account for trade `tradeId`. */
export function lockBought(
  state: EngineState,
  instrument: InstrumentState,
  buyer: OrderRecord,
  tradeId: number,
  qtyLots: number,
  qtyMinor: bigint,
  timeMs: number,
): void {
  const user = state.userList[buyer.userIndex] as UserState;
  const baseAccount = state.ledger.accounts[buyer.baseIndex] as Account;
  const holdId = settlementHoldId(instrument.def.id, tradeId);
  const held = state.ledger.createHold(holdId, 'settlement', baseAccount, qtyMinor, 'trade', `trade:${tradeId}`);
  // The quantity was credited a moment ago and nothing else ran since: failing here is a bug.
  if (!held.ok) throw new Error(`trade ${tradeId}: settlement hold failed (${held.code})`);
  addLock(instrument, { tradeId, user, qtyLots, timeMs, hold: held.hold });
  if (!state.quiet) state.log.push({ type: 'hold_placed', holdId, account: baseAccount.key, amount: qtyMinor, timeMs });
}

/** Records a lock whose hold is already in the ledger (also used by restore). */
export function addLock(instrument: InstrumentState, lock: SettlementLock): void {
  instrument.settlementLocks.push(lock);
  let mine = lock.user.locksByInstrument[instrument.index];
  if (mine === undefined) {
    mine = [];
    lock.user.locksByInstrument[instrument.index] = mine;
  }
  mine.push(lock);
}

export function settleTrades(state: EngineState, command: SettleTrades): ApplyResult {
  const instrument = state.instruments.get(command.instrumentId);
  if (instrument === undefined) return { ok: false, code: 'unknown_instrument' };
  if (typeof command.upToTradeId !== 'number' || !Number.isSafeInteger(command.upToTradeId)) {
    return { ok: false, code: 'invalid_command' };
  }
  const events: EngineEvent[] = [];
  const locks = instrument.settlementLocks;
  let head = instrument.settledHead;
  while (head < locks.length) {
    const lock = locks[head] as SettlementLock;
    if (lock.tradeId > command.upToTradeId) break;
    head += 1;
    const amount = lock.hold.remaining;
    state.ledger.close(lock.hold);
    // Trade ids only grow, so the user's oldest lock of this instrument is this one.
    const mine = lock.user.locksByInstrument[instrument.index];
    if (mine === undefined || mine[0] !== lock) throw new Error(`lock of trade ${lock.tradeId} is out of order`);
    mine.shift();
    events.push({
      type: 'hold_released',
      holdId: lock.hold.id,
      account: lock.hold.account.key,
      amount,
      timeMs: command.timeMs,
    });
  }
  // Drop the released prefix once it outweighs what is left, so the queue stays O(live locks).
  if (head > 1024 && head * 2 > locks.length) {
    locks.splice(0, head);
    head = 0;
  }
  instrument.settledHead = head;
  return { ok: true, events };
}

/** The live locks of a queue, oldest first. */
export function liveLocks(instrument: InstrumentState): SettlementLock[] {
  return instrument.settlementLocks.slice(instrument.settledHead);
}

/** A cross-check for findBrokenInvariant: every live lock is a live settlement hold of its size. */
export function findBrokenLock(state: EngineState, instrument: InstrumentState): string | undefined {
  const lotMinor = instrument.def.lotMinor;
  let previous = 0;
  const perUser = new Map<UserState, number>();
  for (const lock of liveLocks(instrument)) {
    if (lock.tradeId <= previous) return `${instrument.def.id} locks are not in trade order at ${lock.tradeId}`;
    previous = lock.tradeId;
    if (state.ledger.holds.get(lock.hold.id) !== lock.hold) return `lock ${lock.hold.id} is not a live hold`;
    if (lock.hold.remaining !== BigInt(lock.qtyLots) * lotMinor) return `lock ${lock.hold.id} holds the wrong amount`;
    perUser.set(lock.user, (perUser.get(lock.user) ?? 0) + 1);
  }
  for (const user of state.userList) {
    if ((user.locksByInstrument[instrument.index]?.length ?? 0) !== (perUser.get(user) ?? 0)) {
      return `user ${user.id} has a lock list for ${instrument.def.id} that differs from the queue`;
    }
  }
  return undefined;
}

/** The family (families.ts): settle_trades, journaled as `~S`. */
export const SETTLEMENT_FAMILY = defineFamily<SettleTrades>({
  name: 'settlement',
  commands: { settle_trades: { code: 'S', keys: ['instrumentId', 'upToTradeId'], apply: settleTrades } },
  keys: {},
  rejections: [],
});
