// Owns the v5 state hash's encoding of the snapshot's live orders: records of tagged 32-bit words fed
// to the hash, read either from the engine's order records or from a snapshot's `orders` (the same
// words for the same orders, before and after a JSON round trip).
// Why: in v4 the orders went into the hash as the snapshot's JSON. At the end of the 1,000,000-command
// replay (86,060 live orders) that is 26.7 MB of text: an object per order, JSON.stringify and the
// text's bytes cost ~250 ms of a ~600-800 ms start-up check (bench/README.md, session 12).
// Must hold: the encoding is injective over the values a snapshot's order can hold (each value carries
// its tag and, for strings, arrays and objects, its length), and the same on every platform (words are
// fed by value). Must not: depend on object identity.
//
// The words (tags as in state-hash.ts's v2 encoding, which this mirrors in 32-bit words):
// - null, and non-finite numbers (as JSON has them): NULL. Booleans: FALSE / TRUE.
// - A number that is an int32 (−0 counts as 0): INT, the number. Any other finite number: NUM, then
//   its float64 bits as two words, low first.
// - A string: STR, its length in UTF-16 units, then the units two to a word (the first in the low
//   half; an odd last unit with 0 above it).
// - An array: ARR, its length, each item. An object: OBJ, then for each key in order whose value is not
//   undefined: KEY, the key as a string's length and units, the value; then END. A bigint: as the object
//   {"$bigint": its decimal string}, which is how the JSON-safe snapshot holds it.
// - The orders: ARR, their number, then each order: ORDER and the fields of ORDER_FIELDS_V5 in that
//   order (hash-tags.ts), each as its value above or ABSENT when it is undefined (no key names). Anything in `orders`
//   that is not an object is encoded as a value.

import type { EngineState, OrderRecord } from './engine-state.ts';
import type { Murmur3x128 } from './hash.ts';
import { ABSENT, ARR, END, FALSE, INT, KEY, NULL, NUM, OBJ, ORDER, ORDER_FIELDS_V5, STR, TRUE } from './hash-tags.ts';
import { countLiveOrders, forEachLiveOrder, type Where } from './snapshot.ts';

/** Scratch for decimalString(): a safe integer's digits (at most 16), right-aligned. */
const digits = new Uint16Array(16);
const bits = new Float64Array(1);
const halves = new Int32Array(bits.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LOW = LITTLE_ENDIAN ? 0 : 1;
const HIGH = LITTLE_ENDIAN ? 1 : 0;

/** Words go to the hash this many at a time. */
const BUFFER_WORDS = 1 << 14;
/** Room made before each order from its record: its fixed words, with strings checked on their own. */
const ORDER_WORDS = 64;

/** Writes the encoding above into a buffer that it feeds to `hasher` whenever it fills (and on flush). */
export class OrderWords {
  private readonly hasher: Murmur3x128;
  private readonly buffer = new Int32Array(BUFFER_WORDS);
  private at = 0;

  constructor(hasher: Murmur3x128) {
    this.hasher = hasher;
  }

  /** Feeds what is buffered to the hash. Call once at the end. */
  flush(): void {
    this.hasher.words(this.buffer.subarray(0, this.at));
    this.at = 0;
  }

  /** Makes room for `n` more words (n <= BUFFER_WORDS), feeding the hash what is buffered if need be. */
  private reserve(n: number): void {
    if (this.at + n > BUFFER_WORDS) this.flush();
  }

  private word(w: number): void {
    if (this.at === BUFFER_WORDS) this.flush();
    this.buffer[this.at] = w;
    this.at += 1;
  }

  value(v: unknown): void {
    switch (typeof v) {
      case 'string':
        this.string(STR, v);
        return;
      case 'number':
        this.number(v);
        return;
      case 'boolean':
        this.word(v ? TRUE : FALSE);
        return;
      case 'bigint':
        this.word(OBJ);
        this.string(KEY, '$bigint');
        this.string(STR, v.toString());
        this.word(END);
        return;
      case 'object':
        if (v === null) this.word(NULL);
        else if (Array.isArray(v)) {
          this.word(ARR);
          this.word(v.length);
          for (let i = 0; i < v.length; i++) this.value(v[i]);
        } else {
          this.word(OBJ);
          const record = v as Record<string, unknown>;
          for (const k in record) {
            const item = record[k];
            // JSON leaves these keys out, and so does the JSON-safe snapshot.
            if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
            this.string(KEY, k);
            this.value(item);
          }
          this.word(END);
        }
        return;
      default:
        this.word(NULL);
    }
  }

  /** `tag`, the string's length, then its UTF-16 units two to a word. */
  private string(tag: number, s: string): void {
    const n = s.length;
    const words = 2 + ((n + 1) >> 1);
    if (words > BUFFER_WORDS) {
      // Longer than the buffer (not an order's strings): word by word.
      this.word(tag);
      this.word(n);
      for (let i = 0; i < n; i += 2) this.word(s.charCodeAt(i) | (i + 1 < n ? s.charCodeAt(i + 1) << 16 : 0));
      return;
    }
    this.reserve(words);
    const buffer = this.buffer;
    let at = this.at;
    buffer[at++] = tag;
    buffer[at++] = n;
    let i = 0;
    for (; i + 1 < n; i += 2) buffer[at++] = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    if (i < n) buffer[at++] = s.charCodeAt(i);
    this.at = at;
  }

  /** A safe integer's decimal digits as a string (as `${n}` would be encoded), without making the string. */
  private decimalString(n: number): void {
    if (n < 0 || !Number.isSafeInteger(n)) {
      this.string(STR, `${n}`);
      return;
    }
    let count = 0;
    let rest = n;
    do {
      digits[15 - count] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
      count += 1;
    } while (rest > 0);
    this.reserve(2 + ((count + 1) >> 1));
    const buffer = this.buffer;
    let at = this.at;
    buffer[at++] = STR;
    buffer[at++] = count;
    let i = 16 - count;
    for (; i + 1 < 16; i += 2) buffer[at++] = (digits[i] as number) | ((digits[i + 1] as number) << 16);
    if (i < 16) buffer[at++] = digits[i] as number;
    this.at = at;
  }

  private number(n: number): void {
    if ((n | 0) === n) {
      this.word(INT);
      this.word(n);
    } else if (Number.isFinite(n)) {
      bits[0] = n;
      this.word(NUM);
      this.word(halves[LOW] as number);
      this.word(halves[HIGH] as number);
    } else {
      this.word(NULL);
    }
  }

  private field(v: unknown): void {
    if (v === undefined) this.word(ABSENT);
    else this.value(v);
  }

  /** The snapshot's `orders` as it holds them (see the encoding above). */
  orders(orders: readonly unknown[]): void {
    this.word(ARR);
    this.word(orders.length);
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i] as Record<string, unknown> | null;
      if (typeof o !== 'object' || o === null || Array.isArray(o)) {
        this.value(o);
        continue;
      }
      this.word(ORDER);
      for (let f = 0; f < ORDER_FIELDS_V5.length; f++) this.field(o[ORDER_FIELDS_V5[f] as string]);
    }
  }

  /** The state's live orders, in the snapshot's order, as orders() encodes their OrderSnapshot. */
  liveOrders(state: EngineState): void {
    this.word(ARR);
    this.word(countLiveOrders(state));
    forEachLiveOrder(state, (order, where) => this.liveOrder(order, where));
  }

  /** One order, from its record: the values snapshot.ts's orderSnapshot() gives it. */
  private liveOrder(order: OrderRecord, where: Where): void {
    const spec = order.instrument.def.spec;
    this.reserve(ORDER_WORDS);
    this.buffer[this.at++] = ORDER;
    this.number(order.id);
    this.string(STR, order.commandId);
    this.string(STR, order.userId);
    this.string(STR, order.instrument.def.id);
    this.string(STR, order.side);
    this.string(STR, order.orderType);
    this.string(STR, order.timeInForce);
    this.reserve(ORDER_WORDS);
    this.buffer[this.at++] = order.postOnly ? TRUE : FALSE;
    this.number(order.stp);
    if (order.trigger === null) this.buffer[this.at++] = NULL;
    else this.value(order.trigger);
    this.reserve(ORDER_WORDS);
    this.number(order.priceTicks);
    this.number(order.qtyLots);
    this.number(order.filledLots);
    this.string(STR, order.status);
    // holdRemaining is the bigint's decimal string; a safe integer's digits are the same.
    const hold = order.hold.remainingNumber();
    if (hold !== -1) this.decimalString(hold);
    else this.string(STR, order.hold.remaining.toString());
    this.reserve(ORDER_WORDS);
    this.number(order.createdMs);
    this.string(STR, where);
    this.reserve(ORDER_WORDS);
    const buffer = this.buffer;
    if (order.makerFeeBps !== spec.makerFeeBps) this.number(order.makerFeeBps);
    else buffer[this.at++] = ABSENT;
    if (order.takerFeeBps !== spec.takerFeeBps) this.number(order.takerFeeBps);
    else buffer[this.at++] = ABSENT;
    buffer[this.at++] = order.afterMarket ? TRUE : ABSENT;
  }
}
