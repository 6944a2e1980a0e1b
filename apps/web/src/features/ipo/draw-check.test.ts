import { IPO_DRAW_ALGORITHM, type IpoDrawRecordView } from '@bourse/contract';
import { drawIpoRetail, ipoSeedHash } from '@bourse/contract/ipo-draw';
import { describe, expect, it } from 'vitest';
import { checkDraw } from './draw-check.ts';

const SEED = '5e'.repeat(32);
const applications = Array.from({ length: 12 }, (_, i) => ({
  ref: `R${String(i).padStart(4, '0')}`,
  lots: 1 + (i % 3),
}));

/** An honest record: 12 applicants for 5 lots of retail shares, drawn with SEED. */
function honestRecord(): IpoDrawRecordView {
  const result = drawIpoRetail({ seed: SEED, applications, retailShares: 250n, lotSize: 50 });
  return {
    algorithm: IPO_DRAW_ALGORITHM,
    ipoId: 1,
    symbol: 'DEMO',
    name: 'Demo Ltd',
    seedHash: ipoSeedHash(SEED),
    seed: SEED,
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
});
