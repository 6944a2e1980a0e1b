import { describe, expect, it } from 'vitest';
import { PinCache } from './pin-cache.ts';

describe('PinCache', () => {
  it('recognises the same PIN for the same stored hash until it expires, and nothing else', () => {
    const cache = new PinCache();
    cache.remember('pin:trade:1', '$argon2id$A', '246810', 1_000);
    expect(cache.has('pin:trade:1', '$argon2id$A', '246810', 2_000)).toBe(true);
    expect(cache.has('pin:trade:1', '$argon2id$A', '246811', 2_000)).toBe(false);
    expect(cache.has('pin:trade:1', '$argon2id$B', '246810', 2_000)).toBe(false); // PIN changed
    expect(cache.has('pin:trade:2', '$argon2id$A', '246810', 2_000)).toBe(false);
    expect(cache.has('pin:trade:1', '$argon2id$A', '246810', 1_000 + 10 * 60_000)).toBe(false);
  });
});
