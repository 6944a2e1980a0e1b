// Owns the engine's front door: one command in, events or a named rejection out, with idempotency by
// command id, snapshots, restore, a state hash, and read-only queries of live state.
// Must hold: apply() is deterministic: the same commands from the same state give the same results and
// the same stateHash(). Must not: read the clock, randomness, the network, files or the environment.

import type { AssetDefinition } from '@bourse/money';
import { assetOfCode, genesisAssets } from './assets.ts';
import { CommandMemory } from './command-memory.ts';
import type { Command, JournalMark } from './commands.ts';
import { canonicalJson, JOURNAL_NEW, JOURNAL_REPEAT } from './commands.ts';
import {
  type ApplyResult,
  DEFAULT_CONFIG,
  type EngineConfig,
  type EngineState,
  FinishedOrders,
  findUser,
  type OrderRecord,
  recycleFinishedOrders,
  rejected,
  remainingLots,
  UserNumbers,
  WRITTEN,
} from './engine-state.ts';
import { FAMILY_HANDLERS, type FamilyCommand } from './families.ts';
import type { Instrument } from './instrument.ts';
import { type Account, Ledger, type Wallet } from './ledger.ts';
import { dueLiquidationsByScan, LiquidationWatch } from './liquidation-watch.ts';
import { type OptionPosition, optionPosition, optionPositions } from './options.ts';
import { OrderMap } from './order-map.ts';
import {
  findBrokenPosition,
  leverageFor,
  type PositionView,
  positionCount,
  positionFor,
  positionsOf,
} from './positions.ts';
import { MIN_RESULT_RETENTION, ResultLog } from './result-log.ts';
import { findBrokenLock } from './settlement-locks.ts';
import { type EngineSnapshot, jsonOfParts, restoreState, snapshotParts, takeSnapshot } from './snapshot.ts';
import { hashParts, hashState } from './state-hash.ts';
import { amendOrder, cancelOrder, placeOrder, setTradingStatus } from './trading.ts';
import { UserIndex } from './user-index.ts';

export type OrderView = {
  orderId: number;
  commandId: string;
  userId: string;
  instrumentId: string;
  side: 'buy' | 'sell';
  orderType: 'limit' | 'market';
  status: OrderRecord['status'];
  priceTicks: number;
  qtyLots: number;
  filledLots: number;
  remainingLots: number;
  waitingForTrigger: boolean;
  /** Placed while trading was halted and still waiting for the open. */
  queued: boolean;
  /** Queued when placed, trading being halted (an after-market order), whether or not it has entered the book since. */
  afterMarket: boolean;
  holdAmount: bigint;
  createdMs: number;
};

/** One trade's bought quantity that is still held until settlement. */
export type SettlementLockView = { tradeId: number; qtyLots: number; timeMs: number };

export type BalanceView = { balance: bigint; held: bigint; available: bigint };

export type MarketView = {
  referenceTicks: number | null;
  bandLoTicks: number | null;
  bandHiTicks: number | null;
  markTicks: number | null;
  lastTradeTicks: number | null;
  bestBidTicks: number | null;
  bestAskTicks: number | null;
  halted: boolean;
};

export class Engine {
  private readonly state: EngineState;
  #lastApplyWasRepeat = false;
  /** Whether replay() has begun (its first call decides whether the window it began with is cleared). */
  #replaying = false;
  /** The replay cleared the window it began with and left quiet new commands out of it. */
  #replayClearedWindow = false;

  constructor(config: Partial<EngineConfig> = {}, state?: EngineState) {
    const merged = { ...DEFAULT_CONFIG, ...config };
    const log = state?.log ?? new ResultLog(Math.max(merged.rememberedCommandsMax, MIN_RESULT_RETENTION));
    this.state = state ?? {
      config: merged,
      ledger: new Ledger(),
      assets: genesisAssets(),
      instruments: new Map(),
      instrumentList: [],
      userIndexes: new UserIndex(),
      userList: [],
      userNumbers: new UserNumbers(),
      orders: new OrderMap(),
      nextOrderId: 1,
      nextTradeId: 1,
      memory: new CommandMemory(merged.rememberedCommandsMax, log),
      log,
      finishedOrders: new FinishedOrders(),
      orderPool: [],
      quiet: false,
      perpetuals: new Map(),
      liquidating: null,
    };
  }

  /**
   * The engine a snapshot describes: one snapshot() took, as JSON.parse gives it back (another format
   * throws). The engine may keep objects of the snapshot (the remembered commands): do not mutate it
   * afterwards.
   */
  static restore(snapshot: EngineSnapshot): Engine {
    return new Engine({}, restoreState(snapshot));
  }

  /**
   * Applies one command. A command id seen before answers its first result if the body is the same
   * (an equal result rebuilt from the idempotency window, not the same object), and `command_id_reused`
   * if not. The engine keeps the command object: do not mutate it afterwards. Rejections are shared
   * frozen objects: do not mutate results. A success is usually a LoggedResult: its events are made
   * when `events` is first read, which must be within MIN_RESULT_RETENTION (65,536) commands (or the
   * window's size, if larger); an EventReader reads them without making them.
   */
  apply(command: Command): ApplyResult {
    this.#lastApplyWasRepeat = false;
    if (
      typeof command !== 'object' ||
      command === null ||
      typeof command.id !== 'string' ||
      command.id.length === 0 ||
      command.id.length > 128 ||
      !Number.isSafeInteger(command.timeMs)
    ) {
      return rejected('invalid_command');
    }
    const memory = this.state.memory;
    const seen = memory.find(command.id);
    if (seen !== undefined) {
      this.#lastApplyWasRepeat = true;
      // The body is what the caller sent; timeMs is the sequencer's stamp, so a retry keeps its first answer.
      return bodyOf(seen.command) === bodyOf(command) ? seen.result : rejected('command_id_reused');
    }
    return this.applyNew(command);
  }

  /**
   * Whether the last apply() found its command's id in the idempotency window (a repeat: it answered
   * the first result or command_id_reused and changed nothing). The host marks the journal line with it
   * (encodeJournalLine), so that a replay needs no window of ids to tell repeats.
   */
  get lastApplyWasRepeat(): boolean {
    return this.#lastApplyWasRepeat;
  }

  /** A command whose id the window was just asked about and does not know (apply(), replay()). */
  private applyNew(command: Command): ApplyResult {
    const state = this.state;
    // Left over only if a previous command threw half way: never reuse those records.
    state.finishedOrders.drop();
    const log = state.log;
    log.begin();
    let result: ApplyResult;
    try {
      result = this.dispatch(command);
    } catch (error) {
      // What it wrote before it threw must not reach the window's export (snapshots, the state hash).
      log.abort();
      throw error;
    }
    let answer = result;
    if (result === WRITTEN) {
      const written = log.finishResult();
      state.memory.addWritten(command.id, command, written);
      answer = written;
    } else {
      // A handler writes its events or answers them, never both; a rejection comes before any write.
      if (!log.isEmpty) {
        log.abort();
        throw new Error(`${command.type}: events were written for a result answered otherwise`);
      }
      state.memory.add(command.id, command, result);
    }
    recycleFinishedOrders(state);
    return answer;
  }

  /**
   * Replays one journaled command at start-up: the state afterwards is exactly what apply(command)
   * would leave, and the result is not made. `after` is how many journaled commands this replay applies
   * after this one (the host knows the journal's last seq); `mark` is the journal line's (journalMark):
   * every line carries one (docs/decisions/0010-journal-repeat-marks.md), and a line without one throws.
   *
   * A repeat is passed over and a new command is applied without asking the window. One followed by at
   * least twice `rememberedCommandsMax` more does not enter the window at all, and the window the replay
   * began with (a snapshot's) is emptied first: from then on it holds exactly the journal's last new
   * commands, so nothing in it is one the live engine had forgotten. It is complete when it is full at
   * the end (replayComplete()).
   */
  replay(command: Command, after: number, mark: JournalMark | number): void {
    if (mark !== JOURNAL_NEW && mark !== JOURNAL_REPEAT) throw new Error('a journal line without its mark');
    const state = this.state;
    const memory = state.memory;
    if (!this.#replaying) {
      this.#replaying = true;
      if (after >= 2 * memory.max) {
        memory.clear();
        this.#replayClearedWindow = true;
      }
    }
    // A repeat changed nothing when it was applied, whatever its body (its answer is not needed).
    if (mark === JOURNAL_REPEAT || !isIdentified(command)) return;
    if (after < 2 * memory.max) {
      this.applyNew(command);
      return;
    }
    // A new command's result is neither kept nor, on the busy paths, built (state.quiet).
    state.finishedOrders.drop();
    state.quiet = true;
    state.log.begin();
    try {
      this.dispatch(command);
    } finally {
      state.quiet = false;
      // What the rarer handlers wrote even so is not read either.
      state.log.abort();
    }
    recycleFinishedOrders(state);
  }

  /**
   * After the last replay(): whether the idempotency window holds what apply() would have left in it.
   * False only when the replay cleared the window and so many of the last commands were repeats or
   * invalid that it is not full: the engine must then be dropped and the journal replayed with apply()
   * (its balances and books are right, but a repeat of a forgotten command, the snapshot and the state
   * hash would be wrong).
   */
  replayComplete(): boolean {
    const memory = this.state.memory;
    return !(this.#replayClearedWindow && memory.size < memory.max);
  }

  private dispatch(command: Command): ApplyResult {
    const state = this.state;
    switch (command.type) {
      case 'place_order':
        return placeOrder(state, command);
      case 'cancel_order':
        return cancelOrder(state, command);
      case 'amend_order':
        return amendOrder(state, command);
      case 'set_trading_status':
        return setTradingStatus(state, command);
      default: {
        // A family's command (families.ts): the hot path's commands above never reach this lookup.
        const handler = FAMILY_HANDLERS.get(command.type);
        return handler === undefined ? rejected('invalid_command') : handler(state, command as FamilyCommand);
      }
    }
  }

  snapshot(): EngineSnapshot {
    return takeSnapshot(this.state);
  }

  /** The state hash (state-hash.ts, `v5:` + 32 hex digits), read from the state. Equal hashes mean equal state. */
  stateHash(): string {
    return hashState(this.state);
  }

  /**
   * The snapshot's JSON (JSON.stringify(snapshot()), joined from its parts without the snapshot object)
   * and its hash (stateHash(), from the same parts): what a host stores.
   */
  snapshotState(): { json: string; hash: string } {
    const parts = snapshotParts(this.state);
    return { json: jsonOfParts(parts), hash: hashParts(parts) };
  }

  balance(owner: string, wallet: Wallet, asset: string): BalanceView {
    const account = this.state.ledger.find(owner, wallet, asset);
    if (account === undefined) return { balance: 0n, held: 0n, available: 0n };
    return { balance: account.balance, held: account.held, available: account.balance - account.held };
  }

  /** A live funds hold (hold_funds) by id: what is still held; undefined once posted in full or voided. */
  fundsHold(holdId: string): { remaining: bigint; account: string } | undefined {
    const hold = this.state.ledger.holds.get(holdId);
    if (hold === undefined || hold.kind !== 'funds') return undefined;
    return { remaining: hold.remaining, account: hold.account.key };
  }

  /** Whether a transfer id (a deposit's, a posting's…) has been used: the transfer happened. */
  transferPosted(transferId: string): boolean {
    return this.state.ledger.usedIds.get(transferId)?.posted != null;
  }

  /** Every ledger account, in opening order (read-only: do not mutate). */
  accounts(): readonly Readonly<Account>[] {
    return this.state.ledger.accounts;
  }

  /** The asset a code names: a registered one (built-in or register_asset's), or a share implied by its code. */
  asset(code: string): AssetDefinition | undefined {
    return assetOfCode(this.state.assets, code);
  }

  /** Every registered asset, in registration order (shares are implied, not listed). */
  assets(): AssetDefinition[] {
    return [...this.state.assets.values()];
  }

  /** Ids of the perpetual contracts, in registration order. */
  perpetualIds(): string[] {
    return this.state.instrumentList.filter((i) => i.def.perpetual !== null).map((i) => i.def.id);
  }

  instrument(id: string): Instrument | undefined {
    return this.state.instruments.get(id)?.def;
  }

  market(id: string): MarketView | undefined {
    const i = this.state.instruments.get(id);
    if (i === undefined) return undefined;
    return {
      referenceTicks: i.referenceTicks,
      bandLoTicks: i.bandLoTicks,
      bandHiTicks: i.bandHiTicks,
      markTicks: i.markTicks,
      lastTradeTicks: i.lastTradeTicks,
      bestBidTicks: i.book.bestBid === -1 ? null : i.book.bestBid,
      bestAskTicks: i.book.bestAsk === -1 ? null : i.book.bestAsk,
      halted: i.halted,
    };
  }

  /** Best `levels` price levels per side as [ticks, lots], best first. */
  depth(instrumentId: string, levels: number): { bids: [number, number][]; asks: [number, number][] } {
    const book = this.state.instruments.get(instrumentId)?.book;
    if (book === undefined) return { bids: [], asks: [] };
    return { bids: book.depth('buy', levels), asks: book.depth('sell', levels) };
  }

  order(orderId: number): OrderView | undefined {
    const order = this.state.orders.get(orderId);
    return order === undefined ? undefined : viewOf(order);
  }

  openOrders(userId: string): OrderView[] {
    const views: OrderView[] = [];
    for (const order of this.state.orders.matching((o) => o.userId === userId)) views.push(viewOf(order));
    return views;
  }

  /**
   * What `userId` bought of the instrument that is still locked until settlement, oldest first. The
   * sellable quantity is `balance(...).available` of the base asset (locks and sell orders are held).
   */
  settlementLocks(userId: string, instrumentId: string): SettlementLockView[] {
    const instrument = this.state.instruments.get(instrumentId);
    const user = findUser(this.state, userId);
    if (instrument === undefined || user === undefined) return [];
    const locks = user.locksByInstrument[instrument.index] ?? [];
    return locks.map((lock) => ({ tradeId: lock.tradeId, qtyLots: lock.qtyLots, timeMs: lock.timeMs }));
  }

  /**
   * Every live order (resting, waiting for its trigger, or queued while trading is halted) with its
   * status and lots filled, in placement order. It costs a pass over the order map's slots (as many as
   * there were live orders at their peak) and, once a slot has been reused (any order finished), a sort
   * of the n live orders by placement: O(n log n), where openOrders() of every user would be
   * O(users × live orders). For the reconciliation, which takes them in one pass.
   */
  liveOrders(): { orderId: number; status: OrderRecord['status']; filledLots: number }[] {
    return this.state.orders
      .values()
      .map((order) => ({ orderId: order.id, status: order.status, filledLots: order.filledLots }));
  }

  /**
   * The last order id and trade id given out (0: none yet). Each order placed takes the next order id
   * and each trade the next trade id, from 1, never reused (a rejected order takes none): every id from
   * 1 to these was given out. For the reconciliation, which checks that each has its stored row.
   */
  lastIds(): { orderId: number; tradeId: number } {
    return { orderId: this.state.nextOrderId - 1, tradeId: this.state.nextTradeId - 1 };
  }

  /** Resting order ids of one instrument in priority order: bids best first, then asks. */
  restingOrderIds(instrumentId: string): number[] {
    const ids: number[] = [];
    this.state.instruments.get(instrumentId)?.book.forEachOrder((id) => ids.push(id));
    return ids;
  }

  /** Open positions of a perpetual in the order they opened (none for another kind). */
  positions(instrumentId: string): PositionView[] {
    return positionsOf(this.state, instrumentId);
  }

  /** One customer's open position on a perpetual (none: undefined), without viewing the others. */
  position(instrumentId: string, userId: string): PositionView | undefined {
    return positionFor(this.state, instrumentId, userId);
  }

  /** Open option positions in the order they were opened (options.ts). */
  optionPositions(): OptionPosition[] {
    return optionPositions(this.state);
  }

  /** One open option position (closed or unknown: undefined). */
  optionPosition(positionId: string): OptionPosition | undefined {
    return optionPosition(this.state, positionId);
  }

  /** How many open positions a perpetual has: cheap, for a host deciding whether to look at all. */
  positionCount(instrumentId: string): number {
    return positionCount(this.state, instrumentId);
  }

  /**
   * An index of the perpetual's positions by liquidation price for the host's risk loop: due(mark) after
   * set_mark_price, refresh(userId) on each position_changed. Reads live state; never changes it.
   */
  liquidationWatch(instrumentId: string): LiquidationWatch {
    return new LiquidationWatch(this.state, instrumentId);
  }

  /** Positions due for liquidation at `markTicks`, found by checking every one (the index's reference). */
  dueLiquidationsByScan(instrumentId: string, markTicks: number): string[] {
    return dueLiquidationsByScan(this.state, instrumentId, markTicks);
  }

  /** The leverage `userId` trades the perpetual at (set_leverage, else the spec's default). */
  leverage(userId: string, instrumentId: string): number | undefined {
    return leverageFor(this.state, userId, instrumentId);
  }

  /** The first broken invariant of ledger, books and orders, or undefined. For tests and reconciliation. */
  findBrokenInvariant(): string | undefined {
    const liveOrders = this.state.orders.values();
    const orderHolds = liveOrders.map((order) => order.hold);
    const broken = this.state.ledger.findBrokenInvariant(orderHolds) ?? findBrokenPosition(this.state);
    if (broken !== undefined) return broken;
    const openByUser = new Map<string, number>();
    for (const instrument of this.state.instrumentList) {
      const { bestBid, bestAsk } = instrument.book;
      if (bestBid !== -1 && bestAsk !== -1 && bestBid >= bestAsk)
        return `${instrument.def.id} is crossed: ${bestBid} >= ${bestAsk}`;
      const brokenLock = findBrokenLock(this.state, instrument);
      if (brokenLock !== undefined) return brokenLock;
    }
    for (const order of liveOrders) {
      openByUser.set(order.userId, (openByUser.get(order.userId) ?? 0) + 1);
      const left = remainingLots(order);
      if (left <= 0) return `order ${order.id} is live with nothing left`;
      const book = order.instrument.book;
      if ((order.trigger === null && !order.instrument.queued.includes(order)) || book.has(order.id)) {
        if (book.remainingOf(order.id) !== left)
          return `order ${order.id}: book has ${book.remainingOf(order.id)}, record ${left}`;
      }
      const def = order.instrument.def;
      // A spot or stock sell holds its quantity; a perpetual's hold is margin and fee (positions.ts).
      const need = order.side === 'sell' && def.perpetual === null ? BigInt(left) * def.lotMinor : 0n;
      if (order.hold.remaining < need) return `order ${order.id} holds ${order.hold.remaining} < ${need}`;
    }
    for (const user of this.state.userList) {
      if ((openByUser.get(user.id) ?? 0) !== user.openOrders) return `user ${user.id} open orders count is off`;
    }
    return undefined;
  }
}

/** What apply() checks before anything else (its first lines): an object with a usable id and time. */
function isIdentified(command: Command): boolean {
  return (
    typeof command === 'object' &&
    command !== null &&
    typeof command.id === 'string' &&
    command.id.length > 0 &&
    command.id.length <= 128 &&
    Number.isSafeInteger(command.timeMs)
  );
}

function bodyOf(command: unknown): string {
  return canonicalJson({ ...(command as Command), timeMs: 0 });
}

function viewOf(order: OrderRecord): OrderView {
  return {
    orderId: order.id,
    commandId: order.commandId,
    userId: order.userId,
    instrumentId: order.instrument.def.id,
    side: order.side,
    orderType: order.orderType,
    status: order.status,
    priceTicks: order.priceTicks,
    qtyLots: order.qtyLots,
    filledLots: order.filledLots,
    remainingLots: remainingLots(order),
    waitingForTrigger: order.trigger !== null && !order.instrument.book.has(order.id),
    queued: order.afterMarket && order.instrument.queued.includes(order),
    afterMarket: order.afterMarket,
    holdAmount: order.hold.remaining,
    createdMs: order.createdMs,
  };
}
