import { describe, expect, it } from 'vitest';
import {
  beaconRoundAt,
  beaconRoundTime,
  DRAND_QUICKNET,
  drawSeedOf,
  SANDBOX_BEACON,
  verifyDrandQuicknetRound,
} from './beacon.ts';
import { QUICKNET_123 } from './beacon-fixtures.ts';

describe('drand quicknet rounds', () => {
  it('verifies a real round and refuses it under another round number or with another signature', () => {
    const { round, randomness, signature } = QUICKNET_123;
    expect(verifyDrandQuicknetRound(round, randomness, signature)).toBe(true);
    expect(verifyDrandQuicknetRound(round + 1, randomness, signature)).toBe(false);
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('2') ? '3' : '2'}`;
    expect(verifyDrandQuicknetRound(round, randomness, flipped)).toBe(false);
    expect(verifyDrandQuicknetRound(round, '00'.repeat(32), signature)).toBe(false);
    expect(verifyDrandQuicknetRound(round, randomness, 'zz')).toBe(false);
  });
});

describe('round times', () => {
  it('round 1 is at genesis, then one every period', () => {
    expect(beaconRoundTime('drand-quicknet', 1)).toBe(DRAND_QUICKNET.genesisMs);
    expect(beaconRoundTime('drand-quicknet', 101)).toBe(DRAND_QUICKNET.genesisMs + 100 * DRAND_QUICKNET.periodMs);
    expect(beaconRoundTime('sandbox', 1)).toBe(SANDBOX_BEACON.genesisMs);
  });
  it('the round at a time is the first published at or after it', () => {
    for (const source of ['drand-quicknet', 'sandbox'] as const) {
      for (const ms of [1_800_000_000_000, 1_800_000_000_001, 1_800_000_002_999, 1_800_000_003_000]) {
        const round = beaconRoundAt(source, ms);
        expect(beaconRoundTime(source, round)).toBeGreaterThanOrEqual(ms);
        expect(beaconRoundTime(source, round - 1)).toBeLessThan(ms);
      }
    }
  });
});

describe('drawSeedOf', () => {
  it('is SHA-256 of both halves, so either one changes it', () => {
    const a = drawSeedOf('11'.repeat(32), '22'.repeat(32));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(drawSeedOf('11'.repeat(32), '23'.repeat(32))).not.toBe(a);
    expect(drawSeedOf('12'.repeat(32), '22'.repeat(32))).not.toBe(a);
    expect(() => drawSeedOf('11', '22'.repeat(32))).toThrow(RangeError);
  });
});
