import { IPO_DRAW_ALGORITHM, type IpoDrawRecordView } from '@bourse/contract';
import { beaconRoundAt, drawSeedOf } from '@bourse/contract/beacon';
import { drawIpoRetail, ipoSeedHash } from '@bourse/contract/ipo-draw';
import { describe, expect, it } from 'vitest';
import { checkDraw } from './draw-check.ts';

const SEED = '5e'.repeat(32);
const applications = Array.from({ length: 12 }, (_, i) => ({
  ref: `R${String(i).padStart(4, '0')}`,
  lots: 1 + (i % 3),
}));

const CLOSES_AT = 1_800_000_000_000;
const ROUND = {
  source: 'sandbox' as const,
  round: beaconRoundAt('sandbox', CLOSES_AT + 30_000),
  randomness: '3d'.repeat(32),
  signature: null,
};

/** An honest record: 12 applicants for 5 lots of retail shares, drawn with SEED and a sandbox beacon round. */
function honestRecord(): IpoDrawRecordView {
  const result = drawIpoRetail({
    seed: drawSeedOf(SEED, ROUND.randomness),
    applications,
    retailShares: 250n,
    lotSize: 50,
  });
  return {
    algorithm: IPO_DRAW_ALGORITHM,
    ipoId: 1,
    symbol: 'DEMO',
    name: 'Demo Ltd',
    seedHash: ipoSeedHash(SEED),
    seed: SEED,
    closesAt: CLOSES_AT,
    beacon: ROUND,
    retailShares: '250',
    lotSize: 50,
    mode: result.mode,
    applications,
    allotments: result.allotments,
    drawnAt: 0,
  };
}

describe('checkDraw', () => {
  it('reproduces an honest record: hash, mode and every allottee match', () => {
    const check = checkDraw(honestRecord());
    expect(check.isReproduced).toBe(true);
    expect(check.isHashOk).toBe(true);
    expect(check.beacon).toBe('sandbox');
    expect(check.mode).toBe('lottery');
    expect(check.matched).toBe(5);
    expect(check.missingInRecord).toEqual([]);
    expect(check.extraInRecord).toEqual([]);
  });

  it('finds a swapped allottee: one missing from the record, one extra in it', () => {
    const record = honestRecord();
    const loser = applications.find((a) => !record.allotments.some((w) => w.ref === a.ref));
    const swapped = { ...record, allotments: [...record.allotments.slice(1), { ref: loser?.ref ?? '', lots: 1 }] };
    const check = checkDraw(swapped);
    expect(check.isReproduced).toBe(false);
    expect(check.matched).toBe(4);
    expect(check.missingInRecord).toEqual([record.allotments[0]]);
    expect(check.extraInRecord).toEqual([{ ref: loser?.ref, lots: 1 }]);
  });

  it('refuses a seed that does not match the hash published at the opening', () => {
    const check = checkDraw({ ...honestRecord(), seedHash: ipoSeedHash('00'.repeat(32)) });
    expect(check.isHashOk).toBe(false);
    expect(check.isReproduced).toBe(false);
  });

  it('notices a record that claims the wrong mode', () => {
    const check = checkDraw({ ...honestRecord(), mode: 'proportionate' });
    expect(check.isModeOk).toBe(false);
    expect(check.isReproduced).toBe(false);
  });

  it('refuses a beacon round published before the close (it could have been known while applying)', () => {
    const check = checkDraw({ ...honestRecord(), closesAt: CLOSES_AT + 3_600_000 });
    expect(check.beacon).toBe('before-close');
    expect(check.isReproduced).toBe(false);
  });
});
