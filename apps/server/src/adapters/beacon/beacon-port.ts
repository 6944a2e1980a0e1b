// The randomness beacon port: where the IPO draw gets a public random value that nobody knows before
// the close (decision 0036). Live deployments use drand's quicknet (adapters/beacon/drand); paper mode
// uses the sandbox, which produces each round itself and says so on the public draw record.

import type { BeaconSource } from '@bourse/contract';

/** One published round: its number, its 32 random bytes as hex and, for drand, the BLS signature. */
export type BeaconRound = { round: number; randomness: string; signature: string | null };

export interface RandomnessBeacon {
  readonly source: BeaconSource;
  /**
   * The round once it is published; null while it is still in the future or the beacon cannot be
   * reached (the caller tries again later). Throws when an answer is not a genuine round.
   */
  round(round: number): Promise<BeaconRound | null>;
}
