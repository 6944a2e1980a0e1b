// The engine bench's floor (a reference, not a product): the same rules as Engine.apply() for the
// commands of the engine workload (limit and market orders with price protection, the open-order limit,
// holds, matching with cancel-resting self-trade prevention, settlement of both legs with maker and taker
// fees, cancels), kept in typed arrays by user and by book slot, with no per-order objects, no events, no
// idempotency window and no checks beyond what these commands need. It uses the engine's own book and
// its own price, notional, fee and hold arithmetic. It answers each command through one reused result
// object, enough for the workload to see which orders rest. Given FloorFeatures (an experiment), it also
// runs the engine's own idempotency window and writes the engine's events to its result log, answering
// as the engine does, to measure what those cost on a core of typed arrays.
// Must hold: on the same commands it accepts, rejects and fills exactly as the engine does (the bench
// checks the counts of trades and rejections and every user's balances and holds against the engine's).
// Must not: be used outside bench/.

import {
  type ApplyResult,
  BUY,
  type Command,
  FILL_STP_CANCEL,
  type Instrument,
  OrderBook,
  parseInstrument,
  SELL,
  STP_CANCEL_RESTING,
} from '@bourse/engine';
import { tryParseDecimal } from '@bourse/money';
import { genesisAssets } from '../packages/engine/src/assets.ts';
import { CommandMemory } from '../packages/engine/src/command-memory.ts';
import type { OrderRecord } from '../packages/engine/src/engine-state.ts';
import { buyHoldForSafe, feeOfSafe, tradeNotionalSafe } from '../packages/engine/src/instrument.ts';
import { MIN_RESULT_RETENTION, ResultLog } from '../packages/engine/src/result-log.ts';

const MAX_OPEN_ORDERS = 200;

/**
 * What the floor can be given of the engine's own machinery, to measure what it costs on a core of typed
 * arrays (an experiment, `--floor-features`): the engine's idempotency window (CommandMemory) and its
 * events written to the engine's result log (what apply() answers and the host projects).
 */
export type FloorFeatures = { window: number; events: boolean };

/** The outcome the workload reads (see EngineWorkload.observe): reused for every command. */
type FloorResult = {
  ok: boolean;
  code: string;
  events: { type: string; orderId: number; userId: string }[];
};

export class EngineFloor {
  #instrument: Instrument | undefined;
  #book: OrderBook | undefined;
  readonly #userIndex = new Map<string, number>();
  readonly #userIds: string[] = [];
  // Per user: [quote balance, quote held, base balance, base held] side by side.
  #money = new Float64Array(4 * 1024);
  #openOrders = new Int32Array(1024);
  // Per book slot: the resting order's owner, side and the part of its hold not yet used.
  #slotOwner = new Int32Array(1024);
  #slotSide = new Uint8Array(1024);
  #slotHold = new Float64Array(1024);
  #feeQuote = 0;
  #nextOrderId = 1;
  trades = 0;
  readonly #placed = { type: 'order_placed', orderId: 0, userId: '' };
  readonly #updated = { type: 'order_updated', orderId: 0, userId: '' };
  // The answers' event lists, one array per combination (an array emptied with `length = 0` gets a new
  // backing store from V8, so pushing again would allocate in every command).
  readonly #noEvents: FloorResult['events'] = [];
  readonly #placedOnly: FloorResult['events'] = [this.#placed];
  readonly #placedUpdated: FloorResult['events'] = [this.#placed, this.#updated];
  readonly #updatedOnly: FloorResult['events'] = [this.#updated];
  readonly #result: FloorResult = { ok: true, code: '', events: this.#noEvents };
  readonly #log: ResultLog | undefined;
  readonly #memory: CommandMemory | undefined;
  readonly #events: boolean;
  /** Per user: the keys of its quote and base accounts, as the engine's ledger names them (events). */
  readonly #quoteKeys: string[] = [];
  readonly #baseKeys: string[] = [];
  #feeKey = '';
  /** What orderUpdated() reads of an order, filled in for each update (events). */
  readonly #record = {
    id: 0,
    userId: '',
    instrument: { def: { id: '' } },
    status: 'pending',
    priceTicks: 0,
    qtyLots: 0,
    filledLots: 0,
  };
  readonly #rejections = new Map<string, ApplyResult>();

  constructor(features?: FloorFeatures) {
    if (features === undefined) {
      this.#events = false;
      return;
    }
    this.#log = new ResultLog(Math.max(features.window, MIN_RESULT_RETENTION));
    this.#memory = features.window > 0 ? new CommandMemory(features.window, this.#log) : undefined;
    this.#events = features.events;
  }

  apply(command: Command): ApplyResult {
    const log = this.#log;
    if (log === undefined) return this.#apply(command);
    const memory = this.#memory;
    const seen = memory?.find(command.id);
    if (seen !== undefined) return seen.result;
    log.begin();
    const result = this.#apply(command);
    if (!result.ok) {
      log.abort();
      let answer = this.#rejections.get(result.code);
      if (answer === undefined) {
        answer = Object.freeze({ ok: false as const, code: result.code });
        this.#rejections.set(result.code, answer);
      }
      memory?.add(command.id, command, answer);
      return answer;
    }
    const written = log.finishResult();
    memory?.addWritten(command.id, command, written);
    return this.#events ? written : result;
  }

  #apply(command: Command): ApplyResult {
    const result = this.#result;
    result.ok = true;
    result.events = this.#noEvents;
    switch (command.type) {
      case 'register_instrument': {
        this.#instrument = parseInstrument(command.instrument, genesisAssets());
        if (!this.#instrument) throw new Error('floor: bad instrument');
        this.#book = new OrderBook(command.instrument.maxPriceTicks);
        this.#feeKey = `platform:fees/platform/${this.#instrument.quote.code}`;
        this.#record.instrument.def.id = this.#instrument.id;
        break;
      }
      case 'deposit': {
        const u = this.#user(command.userId);
        const def = this.#instrument as Instrument;
        const isQuote = command.asset === def.quote.code;
        const parsed = tryParseDecimal(command.amount, isQuote ? def.quote.scale : def.base.scale);
        if (!parsed.ok) throw new Error('floor: bad deposit');
        const at = 4 * u + (isQuote ? 0 : 2);
        this.#money[at] = (this.#money[at] as number) + Number(parsed.minor);
        break;
      }
      case 'place_order':
        this.#place(command, result);
        break;
      case 'cancel_order':
        this.#cancel(command, result);
        break;
      default:
        throw new Error(`floor: ${command.type} is not in the workload`);
    }
    return result as unknown as ApplyResult;
  }

  #user(id: string): number {
    let u = this.#userIndex.get(id);
    if (u === undefined) {
      u = this.#userIds.length;
      this.#userIds.push(id);
      this.#userIndex.set(id, u);
      const def = this.#instrument as Instrument;
      this.#quoteKeys.push(`${id}/spot/${def.quote.code}`);
      this.#baseKeys.push(`${id}/spot/${def.base.code}`);
      if (u >= this.#openOrders.length) {
        const money = new Float64Array(this.#money.length * 2);
        money.set(this.#money);
        this.#money = money;
        const open = new Int32Array(this.#openOrders.length * 2);
        open.set(this.#openOrders);
        this.#openOrders = open;
      }
    }
    return u;
  }

  #reject(result: FloorResult, code: string): FloorResult {
    result.ok = false;
    result.code = code;
    return result;
  }

  #place(command: Extract<Command, { type: 'place_order' }>, result: FloorResult): FloorResult {
    const def = this.#instrument as Instrument;
    const book = this.#book as OrderBook;
    const u = this.#userIndex.get(command.userId);
    if (u === undefined) return this.#reject(result, 'insufficient_balance');
    const lots = command.qtyLots;
    const buy = command.side === 'buy';
    const spec = def.spec;
    let price: number;
    if (command.orderType === 'limit') price = command.priceTicks as number;
    else {
      const from = buy ? book.bestAsk : book.bestBid;
      if (from === -1) return this.#reject(result, 'no_liquidity');
      const bps = spec.marketProtectionBps;
      price = buy
        ? Math.min(Math.floor((from * (10_000 + bps)) / 10_000), book.maxTick)
        : Math.max(Math.ceil((from * (10_000 - bps)) / 10_000), 1);
    }
    const money = this.#money;
    if (command.orderType === 'limit' && (this.#openOrders[u] as number) >= MAX_OPEN_ORDERS)
      return this.#reject(result, 'open_order_limit');
    const hold = buy ? buyHoldForSafe(def, price, lots, def.maxFeeBps) : lots * def.lotMinorN;
    const at = 4 * u + (buy ? 0 : 2);
    if ((money[at] as number) - (money[at + 1] as number) < hold) return this.#reject(result, 'insufficient_balance');
    money[at + 1] = (money[at + 1] as number) + hold;
    let holdLeft = hold;
    const id = this.#nextOrderId++;
    this.#placed.orderId = id;
    this.#placed.userId = command.userId;
    result.events = this.#placedOnly;
    const log = this.#events ? (this.#log as ResultLog) : undefined;
    log?.orderPlaced(
      id,
      command.id,
      command.userId,
      def.id,
      command.side,
      command.orderType,
      price,
      lots,
      command.timeInForce ?? (command.orderType === 'market' ? 'ioc' : 'gtc'),
      false,
      false,
      null,
      buy ? def.quote.code : def.base.code,
      hold,
      0n,
      command.timeMs,
    );
    let filledLots = 0;

    const left = book.match(buy ? BUY : SELL, price, lots, u, STP_CANCEL_RESTING);
    let filled = false;
    for (let i = 0; i < book.fillCount; i++) {
      const slot = book.fillMakerSlot[i] as number;
      const maker = this.#slotOwner[slot] as number;
      if (book.fillKind[i] === FILL_STP_CANCEL) {
        this.#release(slot, maker);
        if (log !== undefined)
          this.#update(log, book.fillMakerId[i] as number, maker, 'cancelled', 'self_trade_prevented', command.timeMs);
        continue;
      }
      const qty = book.fillQty[i] as number;
      const notional = tradeNotionalSafe(def, book.fillTick[i] as number, qty);
      const takerFee = feeOfSafe(notional, spec.takerFeeBps);
      const makerFee = feeOfSafe(notional, spec.makerFeeBps);
      const base = qty * def.lotMinorN;
      const buyer = buy ? u : maker;
      const seller = buy ? maker : u;
      const buyerFee = buy ? takerFee : makerFee;
      const sellerFee = buy ? makerFee : takerFee;
      // The buyer pays the notional and its fee from its hold; the seller's base leaves from its hold.
      const paid = notional + buyerFee;
      money[4 * buyer] = (money[4 * buyer] as number) - paid;
      money[4 * buyer + 1] = (money[4 * buyer + 1] as number) - paid;
      money[4 * buyer + 2] = (money[4 * buyer + 2] as number) + base;
      money[4 * seller + 2] = (money[4 * seller + 2] as number) - base;
      money[4 * seller + 3] = (money[4 * seller + 3] as number) - base;
      money[4 * seller] = (money[4 * seller] as number) + notional - sellerFee;
      this.#feeQuote += buyerFee + sellerFee;
      if (buy) {
        holdLeft -= paid;
        this.#slotHold[slot] = (this.#slotHold[slot] as number) - base;
      } else {
        holdLeft -= base;
        this.#slotHold[slot] = (this.#slotHold[slot] as number) - paid;
      }
      this.trades += 1;
      filled = true;
      filledLots += qty;
      if (log !== undefined) {
        const ticks = book.fillTick[i] as number;
        log.fill(
          this.trades,
          def.id,
          ticks,
          qty,
          command.side,
          book.fillMakerId[i] as number,
          id,
          this.#userIds[maker] as string,
          command.userId,
          notional,
          makerFee,
          takerFee,
          command.timeMs,
          this.#quoteKeys[buyer] as string,
          this.#quoteKeys[seller] as string,
          def.quote.code,
          this.#baseKeys[seller] as string,
          this.#baseKeys[buyer] as string,
          def.base.code,
          base,
          buyerFee > 0 ? this.#feeKey : undefined,
          sellerFee > 0 ? this.#feeKey : undefined,
        );
        const makerLeft = book.fillMakerLeft[i] as number;
        this.#update(
          log,
          book.fillMakerId[i] as number,
          maker,
          makerLeft === 0 ? 'filled' : 'partial',
          'fill',
          command.timeMs,
        );
      }
      if (book.fillMakerLeft[i] === 0) this.#release(slot, maker);
    }
    if (left > 0 && command.orderType === 'limit' && !book.takerStopped) {
      const slot = book.rest(id, buy ? BUY : SELL, price, left, u);
      this.#ensureSlot(slot);
      this.#slotOwner[slot] = u;
      this.#slotSide[slot] = buy ? BUY : SELL;
      this.#slotHold[slot] = holdLeft;
      this.#openOrders[u] = (this.#openOrders[u] as number) + 1;
      // As the engine answers: an order that traded before resting ends with its own update.
      if (filled) {
        this.#pushUpdated(result, id, command.userId);
        if (log !== undefined) this.#update(log, id, u, 'partial', 'fill', command.timeMs, price, lots, filledLots);
      }
      return result;
    }
    // Filled, or what is left is cancelled (market protection, STP): the rest of the hold goes back.
    money[at + 1] = (money[at + 1] as number) - holdLeft;
    this.#pushUpdated(result, id, command.userId);
    if (log !== undefined)
      this.#update(
        log,
        id,
        u,
        left === 0 ? 'filled' : 'cancelled',
        left === 0
          ? 'fill'
          : book.takerStopped
            ? 'self_trade_prevented'
            : command.orderType === 'market'
              ? 'market_protection'
              : 'unfilled_ioc',
        command.timeMs,
        price,
        lots,
        filledLots,
      );
    return result;
  }

  /** An order_updated event written as the engine writes it (the fields orderUpdated() reads). */
  #update(
    log: ResultLog,
    orderId: number,
    owner: number,
    status: string,
    reason: string,
    timeMs: number,
    priceTicks = 0,
    qtyLots = 0,
    filledLots = 0,
  ): void {
    const record = this.#record;
    record.id = orderId;
    record.userId = this.#userIds[owner] as string;
    record.status = status;
    record.priceTicks = priceTicks;
    record.qtyLots = qtyLots;
    record.filledLots = filledLots;
    log.orderUpdated(record as unknown as OrderRecord, reason as never, timeMs);
  }

  #pushUpdated(result: FloorResult, orderId: number, userId: string): void {
    this.#updated.orderId = orderId;
    this.#updated.userId = userId;
    // At most one update per command, after the order_placed of a place or alone for a cancel.
    result.events = result.events === this.#placedOnly ? this.#placedUpdated : this.#updatedOnly;
  }

  /** A resting order that has left the book: its unused hold goes back. */
  #release(slot: number, owner: number): void {
    const at = 4 * owner + (this.#slotSide[slot] === BUY ? 1 : 3);
    this.#money[at] = (this.#money[at] as number) - (this.#slotHold[slot] as number);
    this.#slotHold[slot] = 0;
    this.#openOrders[owner] = (this.#openOrders[owner] as number) - 1;
  }

  #cancel(command: Extract<Command, { type: 'cancel_order' }>, result: FloorResult): FloorResult {
    const book = this.#book as OrderBook;
    const u = this.#userIndex.get(command.userId);
    const slot = book.slotOf(command.orderId);
    if (u === undefined || slot === -1 || this.#slotOwner[slot] !== u) return this.#reject(result, 'order_not_found');
    book.cancel(command.orderId);
    this.#release(slot, u);
    this.#pushUpdated(result, command.orderId, command.userId);
    if (this.#events)
      this.#update(this.#log as ResultLog, command.orderId, u, 'cancelled', 'cancelled_by_user', command.timeMs);
    return result;
  }

  #ensureSlot(slot: number): void {
    if (slot < this.#slotOwner.length) return;
    let size = this.#slotOwner.length * 2;
    while (size <= slot) size *= 2;
    const owner = new Int32Array(size);
    owner.set(this.#slotOwner);
    this.#slotOwner = owner;
    const side = new Uint8Array(size);
    side.set(this.#slotSide);
    this.#slotSide = side;
    const hold = new Float64Array(size);
    hold.set(this.#slotHold);
    this.#slotHold = hold;
  }

  /** A user's [quote balance, quote held, base balance, base held] in minor units, or undefined. */
  balancesOf(userId: string): [number, number, number, number] | undefined {
    const u = this.#userIndex.get(userId);
    if (u === undefined) return undefined;
    const m = this.#money;
    return [m[4 * u] as number, m[4 * u + 1] as number, m[4 * u + 2] as number, m[4 * u + 3] as number];
  }

  /** The quote fees collected (minor units). */
  get feesCollected(): number {
    return this.#feeQuote;
  }
}
