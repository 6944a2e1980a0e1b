// Owns the IPO retail draw (DOMAIN.md, SEBI): a pure function of (seed, applications, retail shares, lot)
// that the server runs at the close, the public verification page runs in the browser and
// scripts/verify-ipo-draw.ts runs on a command line; all three must give the same allottees.
// Holds: with more valid applications than retail shares ÷ lot, a lottery gives one lot each to exactly
// that many, picked by a Fisher–Yates draw driven by SHA-256(seed ‖ counter); otherwise everyone gets
// one lot and the rest is allotted proportionately in whole lots (allocateProRata). The result depends
// only on the inputs, never on the order they are given in (the function sorts them by ref).
// Must not: read a clock, Math.random, or anything outside its arguments (decision 0031). Since decision
// 0036 the seed it is given is SHA-256(committed seed ‖ a public beacon round published after the close).

import { allocateProRata } from '@bourse/money';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { beaconRoundTime, drawBeaconRound, drawSeedOf, verifyDrandQuicknetRound } from './beacon.ts';
import type { IpoDrawAllotment, IpoDrawEntry, IpoDrawRecordView } from './ipo.ts';

export type IpoDrawMode = 'lottery' | 'proportionate';
export type IpoDrawInput = {
  /** 32 bytes as 64 lowercase hex digits. */
  seed: string;
  applications: readonly IpoDrawEntry[];
  retailShares: bigint;
  lotSize: number;
};
export type IpoDrawResult = { mode: IpoDrawMode; allotments: IpoDrawAllotment[] };

const SEED = /^[0-9a-f]{64}$/;

/** The commitment published when the issue opens: SHA-256 of the seed's 32 bytes, as hex. */
export function ipoSeedHash(seed: string): string {
  if (!SEED.test(seed)) throw new RangeError('the seed must be 64 lowercase hex digits');
  return bytesToHex(sha256(hexToBytes(seed)));
}

/** Canonical order: by ref, compared code unit by code unit (refs are unique). */
export function canonicalDrawOrder(applications: readonly IpoDrawEntry[]): IpoDrawEntry[] {
  const sorted = [...applications].sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.ref === sorted[i - 1]?.ref) throw new RangeError(`duplicate application ref ${sorted[i]?.ref}`);
  }
  return sorted;
}

/**
 * A stream of uniform 32-bit words: block c is SHA-256(seed ‖ c as 4 bytes big-endian), read as 8
 * big-endian words. `below(m)` rejects words past the largest multiple of m so every index is equally likely.
 */
function randomStream(seed: string) {
  const input = new Uint8Array(36);
  input.set(hexToBytes(seed), 0);
  const view = new DataView(input.buffer);
  let counter = 0;
  let block = new DataView(new ArrayBuffer(32));
  let word = 8;
  const next = (): number => {
    if (word === 8) {
      view.setUint32(32, counter++);
      const digest = sha256(input);
      block = new DataView(digest.buffer, digest.byteOffset, 32);
      word = 0;
    }
    return block.getUint32(4 * word++);
  };
  return {
    below(m: number): number {
      const limit = 2 ** 32 - (2 ** 32 % m);
      for (;;) {
        const x = next();
        if (x < limit) return x % m;
      }
    },
  };
}

/** The retail draw. Applications with fewer than one lot are refused (the server never records them). */
export function drawIpoRetail(input: IpoDrawInput): IpoDrawResult {
  if (!SEED.test(input.seed)) throw new RangeError('the seed must be 64 lowercase hex digits');
  if (!Number.isSafeInteger(input.lotSize) || input.lotSize < 1) throw new RangeError('lot size must be ≥ 1');
  if (input.retailShares < 0n) throw new RangeError('retail shares must not be negative');
  const entries = canonicalDrawOrder(input.applications);
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.lots) || entry.lots < 1) throw new RangeError(`${entry.ref}: lots must be ≥ 1`);
  }
  const lot = BigInt(input.lotSize);
  const n = entries.length;
  const maxAllottees = input.retailShares / lot;

  if (BigInt(n) > maxAllottees) {
    // Oversubscribed: a partial Fisher–Yates shuffle picks k = retail shares ÷ lot winners, one lot each.
    const k = Number(maxAllottees);
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const random = randomStream(input.seed);
    const won = new Uint8Array(n);
    for (let i = 0; i < k; i++) {
      const j = i + random.below(n - i);
      const picked = order[j] as number;
      order[j] = order[i] as number;
      order[i] = picked;
      won[picked] = 1;
    }
    const allotments: IpoDrawAllotment[] = [];
    for (let i = 0; i < n; i++) if (won[i]) allotments.push({ ref: (entries[i] as IpoDrawEntry).ref, lots: 1 });
    return { mode: 'lottery', allotments };
  }

  // Everyone gets one lot; the shares left go proportionately to what each asked beyond it.
  const remainder = input.retailShares - BigInt(n) * lot;
  const extra = allocateProRata(
    entries.map((entry) => BigInt(entry.lots - 1) * lot),
    remainder,
    lot,
  );
  return {
    mode: 'proportionate',
    allotments: entries.map((entry, i) => ({ ref: entry.ref, lots: 1 + Number((extra[i] as bigint) / lot) })),
  };
}

/**
 * The seed a record's draw ran on: v1 the committed seed itself; v2 SHA-256(seed ‖ beacon randomness).
 * Throws when a v2 record has no beacon.
 */
export function recordDrawSeed(record: IpoDrawRecordView): string {
  if (record.algorithm === 'bourse-ipo-draw-v1') return record.seed;
  if (record.beacon === null) throw new RangeError('a v2 draw record names its beacon round');
  return drawSeedOf(record.seed, record.beacon.randomness);
}

/** What the beacon round proves: checked (drand, genuine and after the close) or only a sandbox round. */
export type BeaconCheck = 'none' | 'verified' | 'sandbox' | 'bad-signature' | 'before-close' | 'wrong-round';

/** Checks a record's beacon round: published after the close and, for drand, genuinely signed. */
export function checkRecordBeacon(record: IpoDrawRecordView): BeaconCheck {
  const beacon = record.beacon;
  if (record.algorithm === 'bourse-ipo-draw-v1' || beacon === null) return 'none';
  if (beaconRoundTime(beacon.source, beacon.round) < record.closesAt) return 'before-close';
  // Exactly the round fixed at the opening: a later one could have been picked after the close.
  if (beacon.round !== drawBeaconRound(beacon.source, record.closesAt)) return 'wrong-round';
  if (beacon.source === 'sandbox') return 'sandbox';
  return beacon.signature !== null && verifyDrandQuicknetRound(beacon.round, beacon.randomness, beacon.signature)
    ? 'verified'
    : 'bad-signature';
}

/** What a verifier finds: each problem in words, none when the record reproduces. */
export function verifyIpoDrawRecord(record: IpoDrawRecordView): {
  ok: boolean;
  problems: string[];
  beacon: BeaconCheck;
} {
  const problems: string[] = [];
  const beacon = checkRecordBeacon(record);
  if (!SEED.test(record.seed)) return { ok: false, problems: ['the seed is not 64 lowercase hex digits'], beacon };
  if (ipoSeedHash(record.seed) !== record.seedHash) problems.push('the seed does not match the published hash');
  if (record.algorithm === 'bourse-ipo-draw-v2') {
    if (record.beacon === null || !SEED.test(record.beacon.randomness))
      return { ok: false, problems: [...problems, 'the record names no usable beacon round'], beacon };
    if (beacon === 'before-close') problems.push('the beacon round was published before the close');
    if (beacon === 'bad-signature') problems.push('the beacon round is not signed by the beacon');
    if (beacon === 'wrong-round') problems.push('the beacon round is not the one fixed at the opening');
  }
  const result = drawIpoRetail({
    seed: recordDrawSeed(record),
    applications: record.applications,
    retailShares: BigInt(record.retailShares),
    lotSize: record.lotSize,
  });
  if (result.mode !== record.mode) problems.push(`the draw was a ${result.mode}, the record says ${record.mode}`);
  const published = canonicalDrawOrder(record.allotments);
  if (
    published.length !== result.allotments.length ||
    published.some((a, i) => a.ref !== result.allotments[i]?.ref || a.lots !== result.allotments[i]?.lots)
  ) {
    problems.push('the allottees differ from a re-run of the draw');
  }
  return { ok: problems.length === 0, problems, beacon };
}
