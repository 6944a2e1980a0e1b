// Owns the state hash: v4 (what stateHash() gives), and v3 and v2 (to check hashes recorded before).
// Must hold: hashState(state) === hashSnapshot(takeSnapshot(state)), also for that snapshot after a
// JSON round trip and for the state restored from it; the stream hashed is injective over what the
// state holds (two states that differ in anything a snapshot records give different streams); the hash
// is the same on every platform. Must not: depend on object identity, or on anything the snapshot does
// not record.
//
// v4 is v3 over the snapshot as it is now: a live order placed while trading was halted carries
// `"afterMarket":true` (snapshot.ts, OrderSnapshot). v3 is the same hash of the snapshot without that key,
// which is how states were hashed before it existed (Engine.stateHashAs). A state without such an order
// has the same digest in both.
//
// v3: MurmurHash3 x86_128 (hash.ts) over the format-2 snapshot's parts (snapshot.ts, SnapshotParts), as
// 32-bit words: the JSON of the snapshot without its window, the number of remembered commands, the JSON
// of the window's ids, commands and distinct references (`values`), then the per-entry counts, the
// results' numbers (each float64 as its little-endian bytes) and the reference indexes, each array
// after its length. A text goes in as its length in UTF-8 bytes, then those bytes (feedText). Why: the
// window is hashed in the form the command memory keeps and the snapshot stores (nothing decoded), and
// the snapshot's own JSON text is the canonical encoding of the rest (the same after a round trip). At
// 100,000 remembered commands that is ~35 MB of text and ~20 MB of arrays, ~30 ms, against v2's ~81 M
// FNV steps over a walk of every decoded event (~0.4 s). How the memory stores a result depends on the
// result alone (CommandMemory.addDecoded, settleFill), so the hash is a function of the state.
//
// v2 (hashStateV2, and hashSnapshot of a format-1 snapshot), kept to check hashes recorded before v3:
// the v1 hash was fnv1a64(JSON.stringify(snapshot in format 1)). With the default 100,000-command
// idempotency window that text is ~170 M characters, most of it the window's commands and results
// (bigints as {"$bigint": "…"}, every event's key names), and building it cost ~2 s at every start-up
// and snapshot. v2 feeds the same values: tags and lengths instead of JSON punctuation, numbers as their
// bits instead of their digits, and the two big lists (the window's results and the orders) as records
// of known fields without their key names; the window is read from the command memory as it is.
//
// The encoding, in 16-bit units (every value starts with its tag, so the stream parses back):
// - null, undefined and non-finite numbers (as JSON has them): NULL. Booleans: FALSE / TRUE.
// - A number that is an int32 (−0 counts as 0): INT + its low and high 16 bits. Any other finite
//   number: NUM + the four units of its float64 bits, least significant first.
// - A string: STR + its length (two units, low first) + its UTF-16 code units.
// - An array: ARR + its length + each item. An object: OBJ, then for each key in order whose value is
//   not undefined KEY + the key (length, units) + the value, then END. A bigint: as the object
//   {"$bigint": its decimal string}, which is how the JSON-safe snapshot holds it.
// Two exceptions, each a record of fixed fields: a field's value as above (ABSENT if it is undefined),
// no key names. They cover exactly the fields the engine keeps, and nothing else is in the state there:
// - `orders`: each order is ORDER + the fields of ORDER_FIELDS, in that order.
// - `remembered`: each entry is ARR, 3, the id, the command (as above: a command is kept as sent, so all
//   its keys count), then the result: a success is OK_RESULT + its number of events + each event; an
//   event of the four kinds the command memory stores field by field (order_placed, order_updated,
//   trade, transfer_posted: it keeps exactly the fields of EVENT_FIELDS) is that kind's code + those
//   fields in order; any other event or result (kept whole by reference) is encoded as above.

import type { EngineState, OrderRecord } from './engine-state.ts';
import { Fnv64, Murmur3x128 } from './hash.ts';
import {
  countLiveOrders,
  type EngineSnapshot,
  forEachLiveOrder,
  partsOfSnapshot,
  SNAPSHOT_VERSION,
  SNAPSHOT_VERSION_1,
  type SnapshotParts,
  snapshotParts,
  snapshotWithoutWindow,
  type Where,
} from './snapshot.ts';

/** The prefix of a v2 state hash; a v1 hash is 16 hex digits with no prefix. */
export const STATE_HASH_V2 = 'v2:';
/** The prefix of a v3 state hash (32 hex digits follow). */
export const STATE_HASH_V3 = 'v3:';
/** The prefix of a v4 state hash (32 hex digits follow). */
export const STATE_HASH_V4 = 'v4:';

const NULL = 1;
const FALSE = 2;
const TRUE = 3;
const INT = 4;
const NUM = 5;
const STR = 6;
const ARR = 7;
const OBJ = 8;
const KEY = 9;
const END = 10;
const ABSENT = 11;
const OK_RESULT = 12;
const ORDER = 13;
const ORDER_PLACED = 14;
const ORDER_UPDATED = 15;
const TRADE = 16;
const TRANSFER_POSTED = 17;

/** The fields of an order in the snapshot's `orders`, in record order (snapshot.ts, OrderSnapshot). */
export const ORDER_FIELDS: readonly string[] = [
  'id',
  'commandId',
  'userId',
  'instrumentId',
  'side',
  'orderType',
  'timeInForce',
  'postOnly',
  'stp',
  'trigger',
  'priceTicks',
  'qtyLots',
  'filledLots',
  'status',
  'holdRemaining',
  'createdMs',
  'where',
  'makerFeeBps',
  'takerFeeBps',
];

/**
 * The fields the command memory keeps of each event kind it stores field by field, in record order
 * (`type` is the record's code). state-hash.test.ts checks them against the events the engine makes.
 */
export const EVENT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  order_placed: [
    'orderId',
    'commandId',
    'userId',
    'instrumentId',
    'side',
    'orderType',
    'priceTicks',
    'qtyLots',
    'timeInForce',
    'postOnly',
    'trigger',
    'status',
    'holdAsset',
    'holdAmount',
    'queued',
    'timeMs',
  ],
  order_updated: [
    'orderId',
    'userId',
    'instrumentId',
    'status',
    'priceTicks',
    'qtyLots',
    'filledLots',
    'remainingLots',
    'reason',
    'timeMs',
  ],
  trade: [
    'tradeId',
    'instrumentId',
    'priceTicks',
    'qtyLots',
    'takerSide',
    'makerOrderId',
    'takerOrderId',
    'makerUserId',
    'takerUserId',
    'notional',
    'makerFee',
    'takerFee',
    'timeMs',
  ],
  transfer_posted: ['transferId', 'debit', 'credit', 'asset', 'amount', 'cause', 'link', 'timeMs'],
};

const bits = new Float64Array(1);
const units = new Uint16Array(bits.buffer);
/** Units of a float64, least significant first, whatever the platform's byte order. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const U0 = LITTLE_ENDIAN ? 0 : 3;
const U1 = LITTLE_ENDIAN ? 1 : 2;
const U2 = LITTLE_ENDIAN ? 2 : 1;
const U3 = LITTLE_ENDIAN ? 3 : 0;

/** Feeds values in the canonical encoding above to an FNV-1a 64 hash. */
export class CanonicalHasher {
  private readonly fnv = new Fnv64();

  value(v: unknown): void {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        this.number(v);
        return;
      case 'boolean':
        this.fnv.unit(v ? TRUE : FALSE);
        return;
      case 'bigint':
        this.bigint(v);
        return;
      case 'object':
        if (v === null) this.fnv.unit(NULL);
        else if (Array.isArray(v)) {
          this.arrayOpen(v.length);
          for (let i = 0; i < v.length; i++) this.value(v[i]);
        } else {
          this.fnv.unit(OBJ);
          const record = v as Record<string, unknown>;
          for (const k in record) {
            const item = record[k];
            // JSON leaves these keys out, and so does the JSON-safe snapshot.
            if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
            this.key(k);
            this.value(item);
          }
          this.fnv.unit(END);
        }
        return;
      default:
        this.fnv.unit(NULL);
    }
  }

  /** As its JSON-safe form {"$bigint": decimal string}, without making that string when it is safe. */
  bigint(v: bigint): void {
    this.fnv.unit(OBJ);
    this.key('$bigint');
    const n = Number(v);
    // A safe Number(v) is exact (any bigint beyond ±(2^53 - 1) converts to at least 2^53 in magnitude).
    if (Number.isSafeInteger(n)) this.fnv.decimal(STR, n);
    else this.string(v.toString());
    this.fnv.unit(END);
  }

  string(s: string): void {
    const n = s.length;
    this.fnv.unit3(STR, n & 0xffff, (n >>> 16) & 0xffff);
    this.fnv.text(s);
  }

  number(n: number): void {
    if ((n | 0) === n) {
      this.fnv.unit3(INT, n & 0xffff, (n >>> 16) & 0xffff);
    } else if (Number.isFinite(n)) {
      bits[0] = n;
      this.fnv.unit(NUM);
      this.fnv.unit(units[U0] as number);
      this.fnv.unit(units[U1] as number);
      this.fnv.unit(units[U2] as number);
      this.fnv.unit(units[U3] as number);
    } else {
      this.fnv.unit(NULL);
    }
  }

  /** The start of an array of `length` items (the caller then feeds each item). */
  arrayOpen(length: number): void {
    this.fnv.unit3(ARR, length & 0xffff, (length >>> 16) & 0xffff);
  }

  objectOpen(): void {
    this.fnv.unit(OBJ);
  }

  /** A key of the object being fed (between objectOpen and objectEnd), before its value. */
  key(k: string): void {
    const n = k.length;
    this.fnv.unit3(KEY, n & 0xffff, (n >>> 16) & 0xffff);
    this.fnv.text(k);
  }

  objectEnd(): void {
    this.fnv.unit(END);
  }

  /** A record field: its value, or ABSENT. */
  private field(v: unknown): void {
    if (v === undefined) this.fnv.unit(ABSENT);
    else this.value(v);
  }

  /** The snapshot's `orders` (see the encoding above). */
  orders(orders: readonly unknown[]): void {
    this.arrayOpen(orders.length);
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i] as Record<string, unknown> | null;
      if (typeof o !== 'object' || o === null) {
        this.value(o);
        continue;
      }
      this.fnv.unit(ORDER);
      this.field(o.id);
      this.field(o.commandId);
      this.field(o.userId);
      this.field(o.instrumentId);
      this.field(o.side);
      this.field(o.orderType);
      this.field(o.timeInForce);
      this.field(o.postOnly);
      this.field(o.stp);
      this.field(o.trigger);
      this.field(o.priceTicks);
      this.field(o.qtyLots);
      this.field(o.filledLots);
      this.field(o.status);
      this.field(o.holdRemaining);
      this.field(o.createdMs);
      this.field(o.where);
      this.field(o.makerFeeBps);
      this.field(o.takerFeeBps);
    }
  }

  /** The start of the snapshot's `orders`, for `count` orders then fed by liveOrder(). */
  ordersOpen(count: number): void {
    this.arrayOpen(count);
  }

  /** One order of `orders`, from the live record: what orders() feeds for its OrderSnapshot (snapshot.ts). */
  liveOrder(order: OrderRecord, where: Where): void {
    const spec = order.instrument.def.spec;
    this.fnv.unit(ORDER);
    this.number(order.id);
    this.value(order.commandId);
    this.value(order.userId);
    this.value(order.instrument.def.id);
    this.value(order.side);
    this.value(order.orderType);
    this.value(order.timeInForce);
    this.value(order.postOnly);
    this.value(order.stp);
    this.value(order.trigger);
    this.value(order.priceTicks);
    this.value(order.qtyLots);
    this.value(order.filledLots);
    this.value(order.status);
    const hold = order.hold.remainingNumber();
    // holdRemaining is the bigint's decimal string; a safe integer's digits are the same.
    if (hold !== -1) this.fnv.decimal(STR, hold);
    else this.string(order.hold.remaining.toString());
    this.value(order.createdMs);
    this.value(where);
    this.field(order.makerFeeBps !== spec.makerFeeBps ? order.makerFeeBps : undefined);
    this.field(order.takerFeeBps !== spec.takerFeeBps ? order.takerFeeBps : undefined);
  }

  /** One entry of the idempotency window (see the encoding above). */
  remembered(id: unknown, command: unknown, result: unknown): void {
    this.arrayOpen(3);
    this.value(id);
    this.value(command);
    if (typeof result !== 'object' || result === null) {
      this.value(result);
      return;
    }
    const { ok, events } = result as { ok?: unknown; events?: unknown };
    if (ok !== true || !Array.isArray(events)) {
      this.value(result);
      return;
    }
    this.fnv.unit3(OK_RESULT, events.length & 0xffff, (events.length >>> 16) & 0xffff);
    for (let i = 0; i < events.length; i++) this.event(events[i]);
  }

  private event(e: unknown): void {
    if (typeof e !== 'object' || e === null) {
      this.value(e);
      return;
    }
    const r = e as Record<string, unknown>;
    switch (r.type) {
      case 'transfer_posted':
        this.fnv.unit(TRANSFER_POSTED);
        this.field(r.transferId);
        this.field(r.debit);
        this.field(r.credit);
        this.field(r.asset);
        this.field(r.amount);
        this.field(r.cause);
        this.field(r.link);
        this.field(r.timeMs);
        return;
      case 'trade':
        this.fnv.unit(TRADE);
        this.field(r.tradeId);
        this.field(r.instrumentId);
        this.field(r.priceTicks);
        this.field(r.qtyLots);
        this.field(r.takerSide);
        this.field(r.makerOrderId);
        this.field(r.takerOrderId);
        this.field(r.makerUserId);
        this.field(r.takerUserId);
        this.field(r.notional);
        this.field(r.makerFee);
        this.field(r.takerFee);
        this.field(r.timeMs);
        return;
      case 'order_updated':
        this.fnv.unit(ORDER_UPDATED);
        this.field(r.orderId);
        this.field(r.userId);
        this.field(r.instrumentId);
        this.field(r.status);
        this.field(r.priceTicks);
        this.field(r.qtyLots);
        this.field(r.filledLots);
        this.field(r.remainingLots);
        this.field(r.reason);
        this.field(r.timeMs);
        return;
      case 'order_placed':
        this.fnv.unit(ORDER_PLACED);
        this.field(r.orderId);
        this.field(r.commandId);
        this.field(r.userId);
        this.field(r.instrumentId);
        this.field(r.side);
        this.field(r.orderType);
        this.field(r.priceTicks);
        this.field(r.qtyLots);
        this.field(r.timeInForce);
        this.field(r.postOnly);
        this.field(r.trigger);
        this.field(r.status);
        this.field(r.holdAsset);
        this.field(r.holdAmount);
        this.field(r.queued);
        this.field(r.timeMs);
        return;
      default:
        this.value(e);
    }
  }

  digest(): string {
    return STATE_HASH_V2 + this.fnv.digest();
  }
}

/**
 * Feeds the snapshot's keys but `remembered`, in order (the caller closes the object); `orders`
 * through feedOrders when given (the state's live orders), else from the body.
 */
function feedBody(hasher: CanonicalHasher, body: Record<string, unknown>, feedOrders?: () => void): void {
  hasher.objectOpen();
  for (const k in body) {
    const item = body[k];
    if (k === 'remembered' || item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    hasher.key(k);
    if (k === 'orders' && feedOrders !== undefined) feedOrders();
    else if (k === 'orders' && Array.isArray(item)) hasher.orders(item);
    else hasher.value(item);
  }
}

/**
 * The hash of a format-2 snapshot's parts (see the top of this file) with `prefix`: v4 for parts of the
 * snapshot as taken now, v3 for parts without the orders' `afterMarket` (snapshotParts' 'v3').
 */
export function hashParts(parts: SnapshotParts, prefix = STATE_HASH_V4): string {
  const hasher = new Murmur3x128();
  feedText(hasher, parts.body);
  hasher.word(parts.counts.length / 2);
  feedText(hasher, parts.ids);
  feedText(hasher, parts.commands);
  feedText(hasher, parts.values);
  hasher.word(parts.counts.length);
  hasher.words(parts.counts);
  hasher.word(parts.nums.length);
  hasher.words(littleEndianWords(parts.nums));
  hasher.word(parts.refs.length);
  hasher.words(parts.refs);
  return prefix + hasher.digest();
}

/** Text is turned into bytes this much at a time (the common, ASCII case), in one reused buffer. */
const TEXT_CHUNK = 1 << 20;
let textScratch: Int32Array<ArrayBuffer> | undefined;

/**
 * Feeds a JSON text: its length in UTF-8 bytes, then those bytes as little-endian 32-bit words, the
 * last one padded with zeros. The texts are JSON.stringify's, which escapes lone surrogates, so UTF-8
 * loses nothing. An ASCII text (UTF-8 length = UTF-16 length) is copied out as Latin-1, the same bytes
 * (a memory copy: ~10 times faster than reading it a character at a time).
 */
function feedText(hasher: Murmur3x128, text: string): void {
  const length = Buffer.byteLength(text, 'utf8');
  hasher.word(length);
  if (length !== text.length) {
    const words = new Int32Array((length + 3) >> 2);
    const bytes = Buffer.from(words.buffer);
    bytes.write(text, 'utf8');
    if (!LITTLE_ENDIAN) bytes.swap32();
    hasher.words(words);
    return;
  }
  textScratch ??= new Int32Array(TEXT_CHUNK / 4);
  const scratch = textScratch;
  const bytes = Buffer.from(scratch.buffer);
  for (let at = 0; at < length; at += TEXT_CHUNK) {
    const n = Math.min(TEXT_CHUNK, length - at);
    bytes.write(text.slice(at, at + n), 0, n, 'latin1');
    const padded = (n + 3) & ~3;
    bytes.fill(0, n, padded);
    const view = bytes.subarray(0, padded);
    if (!LITTLE_ENDIAN) view.swap32();
    hasher.words(scratch.subarray(0, padded >> 2));
  }
}

/**
 * The hash of a snapshot (as taken, or as parsed back from its JSON): v4 for format 2 (today's hash of
 * what it holds, whatever version wrote it), v2 for format 1. To check a hash recorded with a snapshot,
 * restore it and ask Engine.stateHashAs (and Engine.restoresExactly).
 */
export function hashSnapshot(snapshot: unknown): string {
  const version =
    typeof snapshot === 'object' && snapshot !== null ? (snapshot as { version?: unknown }).version : undefined;
  if (version === SNAPSHOT_VERSION) return hashParts(partsOfSnapshot(snapshot as EngineSnapshot));
  return hashSnapshotV2(snapshot);
}

/** The v4 state hash: hashSnapshot(takeSnapshot(state)), from the state's parts (no snapshot object). */
export function hashState(state: EngineState): string {
  return hashParts(snapshotParts(state));
}

/** The v3 state hash, for hashes recorded before v4: the snapshot's parts without `afterMarket`. */
export function hashStateV3(state: EngineState): string {
  return hashParts(snapshotParts(state, 'v3'), STATE_HASH_V3);
}

/** The words of the float64s' little-endian bytes (low word first), as values. */
function littleEndianWords(nums: Float64Array): Int32Array {
  const words = new Int32Array(nums.buffer, nums.byteOffset, nums.length * 2);
  if (LITTLE_ENDIAN) return words;
  const swapped = new Int32Array(words.length);
  for (let i = 0; i < words.length; i += 2) {
    swapped[i] = words[i + 1] as number;
    swapped[i + 1] = words[i] as number;
  }
  return swapped;
}

/** The v2 hash of a snapshot in format 1 (as taken, or as parsed back from its JSON). */
export function hashSnapshotV2(snapshot: unknown): string {
  const hasher = new CanonicalHasher();
  if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot)) {
    hasher.value(snapshot);
    return hasher.digest();
  }
  const record = snapshot as Record<string, unknown>;
  feedBody(hasher, record);
  const remembered = record.remembered;
  if (Array.isArray(remembered)) {
    hasher.key('remembered');
    hasher.arrayOpen(remembered.length);
    for (const entry of remembered) {
      if (Array.isArray(entry) && entry.length === 3) hasher.remembered(entry[0], entry[1], entry[2]);
      else hasher.value(entry);
    }
  } else if (remembered !== undefined) {
    hasher.key('remembered');
    hasher.value(remembered);
  }
  hasher.objectEnd();
  return hasher.digest();
}

/**
 * The v2 state hash: hashSnapshotV2(takeSnapshotV1(state)), without building the snapshot's two big
 * lists: the orders are read from their records, and the window (always the snapshot's last key) from
 * the command memory, each command and result decoded (a bigint is encoded as its JSON-safe form, so no
 * copy is needed). For hashes recorded before v3 (Engine.stateHashAs).
 */
export function hashStateV2(state: EngineState): string {
  const hasher = new CanonicalHasher();
  feedBody(hasher, snapshotWithoutWindow(state, 'v2', SNAPSHOT_VERSION_1) as Record<string, unknown>, () => {
    hasher.ordersOpen(countLiveOrders(state));
    forEachLiveOrder(state, (order, where) => hasher.liveOrder(order, where));
  });
  hasher.key('remembered');
  const memory = state.memory;
  hasher.arrayOpen(memory.size);
  memory.forEach((id, command, result) => {
    hasher.remembered(id, command, result);
  });
  hasher.objectEnd();
  return hasher.digest();
}
