import { beaconRoundTime } from '@bourse/contract/beacon';
import { openDb } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import { SandboxBeacon } from './sandbox-beacon.ts';

describe('SandboxBeacon', () => {
  it('produces a round only from its time on, once: asked again (or after a restart) it gives the same value', async () => {
    const db = await openDb({ dataDir: null });
    try {
      const round = 600_000_000;
      let now = beaconRoundTime('sandbox', round) - 1;
      let draws = 0;
      const random = () => new Uint8Array(32).fill(++draws);
      const beacon = new SandboxBeacon({ db, clock: { now: () => now }, random });
      expect(await beacon.round(round)).toBeNull();
      now += 1;
      const first = await beacon.round(round);
      expect(first).toEqual({ round, randomness: '01'.repeat(32), signature: null });
      expect(await beacon.round(round)).toEqual(first);
      const restarted = new SandboxBeacon({ db, clock: { now: () => now }, random });
      expect(await restarted.round(round)).toEqual(first);
      expect((await beacon.round(round - 1))?.randomness).not.toBe(first?.randomness);
    } finally {
      await db.close();
    }
  });
});
