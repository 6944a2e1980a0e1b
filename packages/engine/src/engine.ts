// Owns the engine's front door: one command in, events or a named rejection out, with idempotency by
// command id, snapshots, restore, a state hash, and read-only queries of live state.
// Must hold: apply() is deterministic: the same commands from the same state give the same results and
// the same stateHash(). Must not: read the clock, randomness, the network, files or the environment.

import { CommandMemory } from './command-memory.ts';
import type { Command } from './commands.ts';
import { canonicalJson } from './commands.ts';
import {
  type ApplyResult,
  DEFAULT_CONFIG,
  type EngineConfig,
  type EngineState,
  findUser,
  type OrderRecord,
  recycleFinishedOrders,
  rejected,
  remainingLots,
  UserNumbers,
} from './engine-state.ts';
import { deposit, holdFunds, postHold, voidHold, walletTransfer } from './funds.ts';
import { fnv1a64 } from './hash.ts';
import type { Instrument } from './instrument.ts';
import { type Account, Ledger, type Wallet } from './ledger.ts';
import { OrderMap } from './order-map.ts';
import { registerInstrument, setInstrumentFees, setMarkPrice, setReferencePrice } from './reference-data.ts';
import { findBrokenLock, settleTrades } from './settlement-locks.ts';
import { type EngineSnapshot, restoreState, takeSnapshot } from './snapshot.ts';
import { amendOrder, cancelOrder, placeOrder, setTradingStatus } from './trading.ts';

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
  /** Placed while trading was halted and waiting for the open (an after-market order). */
  queued: boolean;
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

  constructor(config: Partial<EngineConfig> = {}, state?: EngineState) {
    const merged = { ...DEFAULT_CONFIG, ...config };
    this.state = state ?? {
      config: merged,
      ledger: new Ledger(),
      instruments: new Map(),
      instrumentList: [],
      userIndexes: new Map(),
      userList: [],
      userNumbers: new UserNumbers(),
      orders: new OrderMap(),
      nextOrderId: 1,
      nextTradeId: 1,
      memory: new CommandMemory(merged.rememberedCommandsMax),
      finishedOrders: [],
      orderPool: [],
    };
  }

  static restore(snapshot: EngineSnapshot): Engine {
    return new Engine({}, restoreState(snapshot));
  }

  /**
   * Applies one command. A command id seen before answers its first result if the body is the same
   * (an equal result rebuilt from the idempotency window, not the same object), and `command_id_reused`
   * if not. The engine keeps the command object: do not mutate it afterwards. Rejections are shared
   * frozen objects: do not mutate results.
   */
  apply(command: Command): ApplyResult {
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
      // The body is what the caller sent; timeMs is the sequencer's stamp, so a retry keeps its first answer.
      return bodyOf(seen.command) === bodyOf(command) ? seen.result : rejected('command_id_reused');
    }
    memory.forgetMarks();
    // Left over only if a previous command threw half way: never reuse those records.
    if (this.state.finishedOrders.length > 0) this.state.finishedOrders.length = 0;
    const result = this.dispatch(command);
    memory.add(command.id, command, result);
    if (this.state.finishedOrders.length > 0) recycleFinishedOrders(this.state);
    return result;
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
      case 'deposit':
        return deposit(state, command);
      case 'wallet_transfer':
        return walletTransfer(state, command);
      case 'hold_funds':
        return holdFunds(state, command);
      case 'post_hold':
        return postHold(state, command);
      case 'void_hold':
        return voidHold(state, command);
      case 'settle_trades':
        return settleTrades(state, command);
      case 'register_instrument':
        return registerInstrument(state, command);
      case 'set_reference_price':
        return setReferencePrice(state, command);
      case 'set_mark_price':
        return setMarkPrice(state, command);
      case 'set_trading_status':
        return setTradingStatus(state, command);
      case 'set_instrument_fees':
        return setInstrumentFees(state, command);
      default:
        return rejected('invalid_command');
    }
  }

  snapshot(): EngineSnapshot {
    return takeSnapshot(this.state);
  }

  /** FNV-1a 64 over the snapshot's JSON: equal hashes mean equal state. */
  stateHash(): string {
    return fnv1a64(JSON.stringify(this.snapshot()));
  }

  /** The snapshot as JSON and its hash, from one snapshot (what a host stores). */
  snapshotState(): { json: string; hash: string } {
    const json = JSON.stringify(this.snapshot());
    return { json, hash: fnv1a64(json) };
  }

  balance(owner: string, wallet: Wallet, asset: string): BalanceView {
    const account = this.state.ledger.find(owner, wallet, asset);
    if (account === undefined) return { balance: 0n, held: 0n, available: 0n };
    return { balance: account.balance, held: account.held, available: account.balance - account.held };
  }

  /** Every ledger account, in opening order (read-only: do not mutate). */
  accounts(): readonly Readonly<Account>[] {
    return this.state.ledger.accounts;
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

  /** Resting order ids of one instrument in priority order: bids best first, then asks. */
  restingOrderIds(instrumentId: string): number[] {
    const ids: number[] = [];
    this.state.instruments.get(instrumentId)?.book.forEachOrder((id) => ids.push(id));
    return ids;
  }

  /** The first broken invariant of ledger, books and orders, or undefined. For tests and reconciliation. */
  findBrokenInvariant(): string | undefined {
    const liveOrders = this.state.orders.values();
    const orderHolds = liveOrders.map((order) => order.hold);
    const broken = this.state.ledger.findBrokenInvariant(orderHolds);
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
      openByUser.set(order.user.id, (openByUser.get(order.user.id) ?? 0) + 1);
      const left = remainingLots(order);
      if (left <= 0) return `order ${order.id} is live with nothing left`;
      const book = order.instrument.book;
      if ((order.trigger === null && !order.instrument.queued.includes(order)) || book.has(order.id)) {
        if (book.remainingOf(order.id) !== left)
          return `order ${order.id}: book has ${book.remainingOf(order.id)}, record ${left}`;
      }
      const def = order.instrument.def;
      const need = order.side === 'sell' ? BigInt(left) * def.lotMinor : 0n;
      if (order.hold.remaining < need) return `order ${order.id} holds ${order.hold.remaining} < ${need}`;
    }
    for (const user of this.state.userList) {
      if ((openByUser.get(user.id) ?? 0) !== user.openOrders) return `user ${user.id} open orders count is off`;
    }
    return undefined;
  }
}

function bodyOf(command: unknown): string {
  return canonicalJson({ ...(command as Command), timeMs: 0 });
}

function viewOf(order: OrderRecord): OrderView {
  return {
    orderId: order.id,
    commandId: order.commandId,
    userId: order.user.id,
    instrumentId: order.instrument.def.id,
    side: order.side,
    orderType: order.orderType,
    status: order.status,
    priceTicks: order.priceTicks,
    qtyLots: order.qtyLots,
    filledLots: order.filledLots,
    remainingLots: remainingLots(order),
    waitingForTrigger: order.trigger !== null && !order.instrument.book.has(order.id),
    queued: order.instrument.queued.includes(order),
    holdAmount: order.hold.remaining,
    createdMs: order.createdMs,
  };
}
