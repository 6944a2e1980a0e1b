import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fnv64, fnv1a64 } from './hash.ts';

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64-bit test vectors', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });

  it('agrees with a bigint implementation on arbitrary text', () => {
    const slow = (text: string) => {
      let h = 0xcbf29ce484222325n;
      for (let i = 0; i < text.length; i++)
        h = ((h ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n) & 0xffffffffffffffffn;
      return h.toString(16).padStart(16, '0');
    };
    for (const text of ['hello world', '{"a":[1,2,3]}', 'ünïcødé ✓', 'x'.repeat(1000), '\uffff\u0000\ud83d\ude00'])
      expect(fnv1a64(text)).toBe(slow(text));
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => fnv1a64(text) === slow(text)));
  });
});

describe('Fnv64 (fed piece by piece)', () => {
  it('equals fnv1a64 of the concatenation, however the text is cut', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 8 }), (pieces) => {
        const fnv = new Fnv64();
        for (const piece of pieces) fnv.text(piece);
        return fnv.digest() === fnv1a64(pieces.join(''));
      }),
    );
    const units = new Fnv64();
    for (const ch of 'foobar') units.unit(ch.charCodeAt(0));
    expect(units.digest()).toBe('85944171f73967e8');
  });

  it('feeds the digits of a safe integer as the text of String(n) would be fed', () => {
    const viaText = (n: number) => {
      const fnv = new Fnv64();
      const text = String(n);
      fnv.unit3(6, text.length, 0);
      fnv.text(text);
      return fnv.digest();
    };
    const viaDecimal = (n: number) => {
      const fnv = new Fnv64();
      fnv.decimal(6, n);
      return fnv.digest();
    };
    for (const n of [0, -0, 7, -7, 10, 99_999_999, 100_000_000, 100_000_001, 2 ** 31, 1e15 - 1, 1e15, 2 ** 53 - 1])
      expect(viaDecimal(n), String(n)).toBe(viaText(n));
    expect(viaDecimal(-(2 ** 53 - 1))).toBe(viaText(-(2 ** 53 - 1)));
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => viaDecimal(n) === viaText(n)));
  });
});
