// Owns the public randomness beacon that an IPO draw mixes into its committed seed (decision 0036):
// which beacons exist, when each round is published, how a drand round is checked, and how the draw's
// seed is made from the committed seed and the beacon's round.
// Holds: a round's time is a pure function of its number (genesis + (round − 1) × period), so anyone
// can check that the round fixed at the opening is published only after the close; a drand quicknet
// round is genuine when its BLS signature (on G1, RFC 9380 hash-to-curve) verifies against the
// League of Entropy's public key and its randomness is SHA-256 of that signature.
// Must not: read a clock or the network (the server's adapters fetch rounds; this only checks them).

import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { BeaconSource } from './ipo.ts';

type Schedule = { genesisMs: number; periodMs: number };

/**
 * drand's quicknet on the League of Entropy mainnet (https://api.drand.sh/<chainHash>/info): unchained,
 * a round every 3 s since 2023-08-23, scheme bls-unchained-g1-rfc9380.
 */
export const DRAND_QUICKNET = {
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisMs: 1_692_803_367_000,
  periodMs: 3_000,
  dst: 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_',
} as const;

/**
 * Paper mode's stand-in: rounds on the same 3-s rhythm counted from the Unix epoch (so their numbers
 * cannot be mistaken for drand's), each produced by this server the first time it is asked for after
 * its time. It keeps the mechanics honest but proves nothing to an outsider: the operator produces it.
 */
export const SANDBOX_BEACON = { genesisMs: 0, periodMs: 3_000 } as const;

const SCHEDULES: Record<BeaconSource, Schedule> = { 'drand-quicknet': DRAND_QUICKNET, sandbox: SANDBOX_BEACON };

/**
 * The draw's round is the first one published at least this long after the close (clock differences,
 * a late close). Fixed here, not by the server: a verifier requires exactly that round, so an operator
 * cannot pick another later round after seeing the applications.
 */
export const BEACON_MARGIN_MS = 30_000;

/** The one round a draw closing at `closesAt` must use. */
export function drawBeaconRound(source: BeaconSource, closesAt: number): number {
  return beaconRoundAt(source, closesAt + BEACON_MARGIN_MS);
}

/** When a round is published (ms since the epoch). */
export function beaconRoundTime(source: BeaconSource, round: number): number {
  const { genesisMs, periodMs } = SCHEDULES[source];
  return genesisMs + (round - 1) * periodMs;
}

/** The first round published at or after `ms`. */
export function beaconRoundAt(source: BeaconSource, ms: number): number {
  const { genesisMs, periodMs } = SCHEDULES[source];
  if (ms <= genesisMs) return 1;
  return Math.ceil((ms - genesisMs) / periodMs) + 1;
}

const HEX = /^[0-9a-f]+$/;

/** Whether a drand quicknet round is genuine: signature verifies, randomness is its SHA-256. */
export function verifyDrandQuicknetRound(round: number, randomness: string, signature: string): boolean {
  if (!Number.isSafeInteger(round) || round < 1) return false;
  if (!HEX.test(signature) || signature.length !== 96 || !HEX.test(randomness) || randomness.length !== 64)
    return false;
  const sig = hexToBytes(signature);
  if (bytesToHex(sha256(sig)) !== randomness) return false;
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, BigInt(round));
  const signatures = bls12_381.shortSignatures;
  try {
    return signatures.verify(
      sig,
      signatures.hash(sha256(message), DRAND_QUICKNET.dst),
      hexToBytes(DRAND_QUICKNET.publicKey),
    );
  } catch {
    return false; // not a point on the curve
  }
}

/** The seed the draw runs on: SHA-256(committed seed ‖ beacon randomness), both 32 bytes. */
export function drawSeedOf(committedSeed: string, beaconRandomness: string): string {
  if (!/^[0-9a-f]{64}$/.test(committedSeed) || !/^[0-9a-f]{64}$/.test(beaconRandomness))
    throw new RangeError('the seed and the beacon randomness must each be 64 lowercase hex digits');
  const input = new Uint8Array(64);
  input.set(hexToBytes(committedSeed), 0);
  input.set(hexToBytes(beaconRandomness), 32);
  return bytesToHex(sha256(input));
}
