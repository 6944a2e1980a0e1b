// Proves the seeded generator is reproducible per (seed, key), differs across keys, and is roughly uniform/normal.
import { describe, expect, it } from 'vitest';
import { nextNormal, nextUint32, nextUniform, rngFor } from './prng.ts';

describe('prng', () => {
  it('gives the same sequence for the same seed and key, and another for another key or seed', () => {
    const draw = (seed: string | number, key: string) => {
      const s = rngFor(seed, key);
      return Array.from({ length: 5 }, () => nextUint32(s));
    };
    expect(draw('demo', 'NSE:RELIANCE')).toEqual(draw('demo', 'NSE:RELIANCE'));
    expect(draw('demo', 'NSE:RELIANCE')).not.toEqual(draw('demo', 'NSE:RELIANCF'));
    expect(draw('demo', 'NSE:RELIANCE')).not.toEqual(draw('demo2', 'NSE:RELIANCE'));
    expect(draw(7, 'x')).toEqual(draw('7', 'x'));
  });

  it('draws uniforms in (0,1) with mean 1/2 and normals with mean 0 and variance 1', () => {
    const s = rngFor(1, 'stats');
    const n = 200_000;
    let sumU = 0;
    let sumZ = 0;
    let sumZ2 = 0;
    let outside = 0;
    for (let i = 0; i < n; i++) {
      const u = nextUniform(s);
      if (!(u > 0 && u < 1)) outside++;
      sumU += u;
      const z = nextNormal(s);
      sumZ += z;
      sumZ2 += z * z;
    }
    expect(outside).toBe(0);
    expect(Math.abs(sumU / n - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(sumZ / n)).toBeLessThan(0.01);
    expect(Math.abs(sumZ2 / n - 1)).toBeLessThan(0.02);
  });
});
