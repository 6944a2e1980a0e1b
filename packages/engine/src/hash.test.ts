import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnv1a64 } from './hash.ts';

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
