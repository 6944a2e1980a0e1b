import { describe, expect, it } from 'vitest';
import type { Murmur3x128 } from './hash.ts';
import { ABSENT, ARR, END, FALSE, INT, KEY, NULL, NUM, OBJ, ORDER, ORDER_FIELDS_V5, STR, TRUE } from './hash-tags.ts';
import { OrderWords } from './order-words.ts';

/** The words OrderWords feeds, captured instead of hashed. */
function wordsOf(write: (words: OrderWords) => void): number[] {
  const fed: number[] = [];
  const hasher = { words: (words: Int32Array) => fed.push(...words) } as unknown as Murmur3x128;
  const words = new OrderWords(hasher);
  write(words);
  words.flush();
  return fed;
}

const float64Words = (n: number) => [...new Int32Array(new Float64Array([n]).buffer)];

describe('order words (the v5 state hash encoding of orders)', () => {
  it('writes each kind of value as the file header says', () => {
    expect(wordsOf((w) => w.value(null))).toEqual([NULL]);
    expect(wordsOf((w) => w.value(Number.NaN))).toEqual([NULL]);
    expect(wordsOf((w) => w.value(true))).toEqual([TRUE]);
    expect(wordsOf((w) => w.value(false))).toEqual([FALSE]);
    expect(wordsOf((w) => w.value(-7))).toEqual([INT, -7]);
    expect(wordsOf((w) => w.value(-0))).toEqual([INT, 0]);
    expect(wordsOf((w) => w.value(1.5))).toEqual([NUM, ...float64Words(1.5)]);
    expect(wordsOf((w) => w.value(2 ** 40))).toEqual([NUM, ...float64Words(2 ** 40)]);
    // Two UTF-16 units a word, the first in the low half; an odd last one alone.
    expect(wordsOf((w) => w.value('abc'))).toEqual([STR, 3, 0x62 * 65536 + 0x61, 0x63]);
    expect(wordsOf((w) => w.value(''))).toEqual([STR, 0]);
    expect(wordsOf((w) => w.value('\ud800'))).toEqual([STR, 1, 0xd800]);
    expect(wordsOf((w) => w.value([1, 'x']))).toEqual([ARR, 2, INT, 1, STR, 1, 0x78]);
    expect(wordsOf((w) => w.value({ a: 1, skip: undefined }))).toEqual([OBJ, KEY, 1, 0x61, INT, 1, END]);
    // A bigint as the JSON-safe snapshot holds it: {"$bigint": "12"}.
    const $bigint = [0x62 * 65536 + 0x24, 0x67 * 65536 + 0x69, 0x6e * 65536 + 0x69, 0x74];
    expect(wordsOf((w) => w.value(12n))).toEqual([OBJ, KEY, 7, ...$bigint, STR, 2, 0x32 * 65536 + 0x31, END]);
  });

  it('writes an order as ORDER and its fields in record order, ABSENT where a field is missing', () => {
    const order = { id: 1, commandId: 'c', afterMarket: true };
    const words = wordsOf((w) => w.orders([order, 'not an order']));
    const fields = ORDER_FIELDS_V5.flatMap((f) =>
      f === 'id' ? [INT, 1] : f === 'commandId' ? [STR, 1, 0x63] : f === 'afterMarket' ? [TRUE] : [ABSENT],
    );
    // Anything else in the list is a value.
    expect(words).toEqual([ARR, 2, ORDER, ...fields, ...wordsOf((w) => w.value('not an order'))]);
  });

  it('gives a string longer than its buffer the same words as a short one would have', () => {
    const long = `${'xy'.repeat(20_000)}z`;
    const words = wordsOf((w) => w.value(long));
    expect(words.length).toBe(2 + 20_001);
    expect(words.slice(0, 3)).toEqual([STR, long.length, 0x79 * 65536 + 0x78]);
    expect(words.at(-1)).toBe(0x7a);
  });
});
