import { describe, expect, it } from 'vitest';
import { beaconRoundTime, drawBeaconRound, drawSeedOf } from './beacon.ts';
import { QUICKNET_123 } from './beacon-fixtures.ts';
import { IPO_DRAW_ALGORITHM, type IpoDrawRecordView } from './ipo.ts';
import { canonicalDrawOrder, drawIpoRetail, ipoSeedHash, verifyIpoDrawRecord } from './ipo-draw.ts';

const SEED = 'a1'.repeat(32);
const OTHER_SEED = '0f'.repeat(32);
const apps = (...lots: number[]) => lots.map((l, i) => ({ ref: `A${String(i + 1).padStart(10, '0')}`, lots: l }));
const totalLots = (allotments: { lots: number }[]) => allotments.reduce((s, a) => s + a.lots, 0);

describe('the retail draw (DOMAIN.md: lottery when oversubscribed, one lot plus proportionate otherwise)', () => {
  // Scenario table: applications' lots, retail shares, lot → mode, allottees, lots allotted in all.
  const scenarios = [
    {
      name: 'undersubscribed: everyone gets everything',
      lots: [1, 2, 3],
      shares: 1000n,
      lot: 10,
      mode: 'proportionate',
      winners: 3,
      allotted: 6,
    },
    {
      name: 'exactly subscribed',
      lots: [2, 2, 1],
      shares: 50n,
      lot: 10,
      mode: 'proportionate',
      winners: 3,
      allotted: 5,
    },
    {
      name: 'more shares than one lot each, fewer than asked: one lot plus a proportionate remainder',
      lots: [1, 5, 3],
      shares: 60n,
      lot: 10,
      mode: 'proportionate',
      winners: 3,
      allotted: 6,
    },
    {
      name: 'oversubscribed: a lottery of one lot each for shares ÷ lot winners',
      lots: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
      shares: 40n,
      lot: 10,
      mode: 'lottery',
      winners: 4,
      allotted: 4,
    },
    {
      name: 'oversubscribed with multiple-lot bids: still one lot per winner',
      lots: [3, 7, 1, 2, 5, 4],
      shares: 20n,
      lot: 10,
      mode: 'lottery',
      winners: 2,
      allotted: 2,
    },
    {
      name: 'a partial lot of retail shares is not allotted',
      lots: [1, 1, 1],
      shares: 25n,
      lot: 10,
      mode: 'lottery',
      winners: 2,
      allotted: 2,
    },
    {
      name: 'no retail shares: nobody wins',
      lots: [1, 1],
      shares: 0n,
      lot: 10,
      mode: 'lottery',
      winners: 0,
      allotted: 0,
    },
    { name: 'no applications', lots: [], shares: 100n, lot: 10, mode: 'proportionate', winners: 0, allotted: 0 },
  ] as const;
  for (const s of scenarios) {
    it(s.name, () => {
      const result = drawIpoRetail({
        seed: SEED,
        applications: apps(...s.lots),
        retailShares: s.shares,
        lotSize: s.lot,
      });
      expect(result.mode).toBe(s.mode);
      expect(result.allotments).toHaveLength(s.winners);
      expect(totalLots(result.allotments)).toBe(s.allotted);
      const asked = new Map(apps(...s.lots).map((a) => [a.ref, a.lots]));
      for (const a of result.allotments) expect(a.lots).toBeLessThanOrEqual(asked.get(a.ref) as number);
    });
  }

  it('one lot plus proportionate: the remainder follows what each asked beyond one lot (largest remainder)', () => {
    // 3 apps, lot 10, 60 shares: 30 go one lot each, 30 left for extra asks of 0, 40 and 20 lots-worth.
    const result = drawIpoRetail({ seed: SEED, applications: apps(1, 5, 3), retailShares: 60n, lotSize: 10 });
    expect(result.allotments.map((a) => a.lots)).toEqual([1, 3, 2]);
  });

  it('is a pure function: same inputs in any order give the same allottees; another seed gives others', () => {
    const list = apps(...Array.from({ length: 200 }, (_, i) => 1 + (i % 3)));
    const a = drawIpoRetail({ seed: SEED, applications: list, retailShares: 500n, lotSize: 10 });
    const b = drawIpoRetail({ seed: SEED, applications: [...list].reverse(), retailShares: 500n, lotSize: 10 });
    const c = drawIpoRetail({ seed: OTHER_SEED, applications: list, retailShares: 500n, lotSize: 10 });
    expect(a).toEqual(b);
    expect(a.allotments).toHaveLength(50);
    expect(c.allotments.map((x) => x.ref)).not.toEqual(a.allotments.map((x) => x.ref));
  });

  it('gives every application a fair chance (each of 10 wins about half of 2,000 seeded draws of 5)', () => {
    const wins = new Array(10).fill(0);
    for (let s = 0; s < 2000; s++) {
      const seed = ipoSeedHash(s.toString(16).padStart(64, '0'));
      for (const a of drawIpoRetail({
        seed,
        applications: apps(...new Array(10).fill(1)),
        retailShares: 50n,
        lotSize: 10,
      }).allotments)
        wins[Number(a.ref.slice(1)) - 1]++;
    }
    for (const w of wins) expect(w).toBeGreaterThan(880); // mean 1000, sd ≈ 22
  });

  it('refuses a malformed seed, a duplicate ref and a zero-lot application', () => {
    expect(() => drawIpoRetail({ seed: 'xyz', applications: [], retailShares: 1n, lotSize: 1 })).toThrow(RangeError);
    expect(() =>
      canonicalDrawOrder([
        { ref: 'A', lots: 1 },
        { ref: 'A', lots: 2 },
      ]),
    ).toThrow(RangeError);
    expect(() => drawIpoRetail({ seed: SEED, applications: apps(0), retailShares: 1n, lotSize: 1 })).toThrow(
      RangeError,
    );
  });
});

describe('verifyIpoDrawRecord', () => {
  const applications = apps(1, 2, 1, 1, 3, 1);
  // v2: the draw runs on SHA-256(seed ‖ randomness of drand quicknet round 123, a real round).
  const drawSeed = drawSeedOf(SEED, QUICKNET_123.randomness);
  const { mode, allotments } = drawIpoRetail({ seed: drawSeed, applications, retailShares: 30n, lotSize: 10 });
  const record: IpoDrawRecordView = {
    algorithm: IPO_DRAW_ALGORITHM,
    ipoId: 1,
    symbol: 'ACME',
    name: 'Acme',
    seedHash: ipoSeedHash(SEED),
    seed: SEED,
    // Round 123 is the first published ≥ 30 s after this close: the one fixed at the opening.
    closesAt: beaconRoundTime('drand-quicknet', 123) - 30_000,
    beacon: { source: 'drand-quicknet', ...QUICKNET_123 },
    retailShares: '30',
    lotSize: 10,
    mode,
    applications,
    allotments,
    drawnAt: 0,
  };
  it('accepts the record the draw produced, with a genuine beacon round published after the close', () => {
    expect(verifyIpoDrawRecord(record)).toEqual({ ok: true, problems: [], beacon: 'verified' });
  });
  it('catches a swapped allottee and a seed that does not match its hash', () => {
    const loser = applications.find((a) => !allotments.some((w) => w.ref === a.ref))?.ref as string;
    const forged = { ...record, allotments: [{ ref: loser, lots: 1 }, ...allotments.slice(1)] };
    expect(verifyIpoDrawRecord(forged).problems).toContain('the allottees differ from a re-run of the draw');
    expect(verifyIpoDrawRecord({ ...record, seedHash: ipoSeedHash(OTHER_SEED) }).problems).toContain(
      'the seed does not match the published hash',
    );
  });
  it('does not accept the committed seed alone once a beacon is named (the outcome depends on the round)', () => {
    const seedOnly = drawIpoRetail({ seed: SEED, applications, retailShares: 30n, lotSize: 10 });
    expect(seedOnly.allotments).not.toEqual(allotments);
    expect(verifyIpoDrawRecord({ ...record, allotments: seedOnly.allotments }).ok).toBe(false);
  });
  it('refuses a beacon round published before the close, and a round the beacon did not sign', () => {
    const early = verifyIpoDrawRecord({ ...record, closesAt: beaconRoundTime('drand-quicknet', 124) });
    expect(early.beacon).toBe('before-close');
    expect(early.problems).toContain('the beacon round was published before the close');
    // A later genuine-looking round picked after the close is not the one fixed at the opening.
    const later = verifyIpoDrawRecord({ ...record, closesAt: record.closesAt - 3_000 });
    expect(later.beacon).toBe('wrong-round');
    expect(later.problems).toContain('the beacon round is not the one fixed at the opening');
    const forgedRound = verifyIpoDrawRecord({
      ...record,
      beacon: { ...record.beacon!, round: 124 },
      closesAt: record.closesAt + 3_000,
    });
    expect(forgedRound.beacon).toBe('bad-signature');
    expect(forgedRound.problems).toContain('the beacon round is not signed by the beacon');
  });
  it('says a sandbox round (paper mode) proves nothing, yet still re-runs the draw', () => {
    const randomness = '7c'.repeat(32);
    const round = drawBeaconRound('sandbox', record.closesAt);
    const sandboxDraw = drawIpoRetail({
      seed: drawSeedOf(SEED, randomness),
      applications,
      retailShares: 30n,
      lotSize: 10,
    });
    const sandbox: IpoDrawRecordView = {
      ...record,
      beacon: { source: 'sandbox', round, randomness, signature: null },
      mode: sandboxDraw.mode,
      allotments: sandboxDraw.allotments,
    };
    expect(verifyIpoDrawRecord(sandbox)).toEqual({ ok: true, problems: [], beacon: 'sandbox' });
  });
  it('still verifies a v1 record (drawn on the committed seed alone, before the beacon)', () => {
    const v1 = drawIpoRetail({ seed: SEED, applications, retailShares: 30n, lotSize: 10 });
    const old: IpoDrawRecordView = {
      ...record,
      algorithm: 'bourse-ipo-draw-v1',
      beacon: null,
      mode: v1.mode,
      allotments: v1.allotments,
    };
    expect(verifyIpoDrawRecord(old)).toEqual({ ok: true, problems: [], beacon: 'none' });
  });
});
