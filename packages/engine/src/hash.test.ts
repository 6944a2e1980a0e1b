import { SeededRandom } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { Murmur3x128 } from './hash.ts';

describe('Murmur3x128', () => {
  /** The 32-bit little-endian words of an ASCII text whose length is a multiple of 4. */
  const words = (text: string) => {
    const bytes = Buffer.from(text, 'latin1');
    return Int32Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readInt32LE(4 * i));
  };

  it("gives MurmurHash3_x86_128's published results", () => {
    // The reference tests (github.com/PeterScott/murmur3, test.c), seed 123.
    const x28 = new Murmur3x128(123);
    x28.words(words('xxxxxxxxxxxxxxxxxxxxxxxxxxxx'));
    expect(x28.digest()).toBe('5e40bab278825a164cf929d31fec6047');
    expect(new Murmur3x128(123).digest()).toBe('fedc524526f3e79926f3e79926f3e799');
  });

  it('gives the same hash whatever the words are fed by', () => {
    const random = new SeededRandom(3);
    const all = Int32Array.from({ length: 103 }, () => random.int(-(2 ** 31), 2 ** 31 - 1));
    const whole = new Murmur3x128();
    whole.words(all);
    for (let trial = 0; trial < 20; trial++) {
      const pieces = new Murmur3x128();
      let at = 0;
      while (at < all.length) {
        const n = Math.min(random.int(0, 9), all.length - at);
        if (random.chance(0.5)) for (let i = 0; i < n; i++) pieces.word(all[at + i] as number);
        else pieces.words(all.subarray(at, at + n));
        at += n;
      }
      expect(pieces.digest()).toBe(whole.digest());
    }
  });
});
