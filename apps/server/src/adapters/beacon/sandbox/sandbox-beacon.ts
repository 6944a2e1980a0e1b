// Paper mode's beacon: a round is 32 random bytes produced the first time it is asked for after its
// time (never before) and kept in `sandbox_beacon_rounds`, so asking again gives the same value. It
// keeps the draw's mechanics the same as live (seed committed at the opening, round fixed then, value
// known only after the close) but an outsider cannot check it: the public record says "sandbox".

import { beaconRoundTime } from '@bourse/contract/beacon';
import type { Db } from '@bourse/db';
import type { Clock } from '../../../platform/clock.ts';
import type { BeaconRound, RandomnessBeacon } from '../beacon-port.ts';

export class SandboxBeacon implements RandomnessBeacon {
  readonly source = 'sandbox' as const;
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #random: () => Uint8Array;
  constructor(deps: { db: Db; clock: Clock; random: () => Uint8Array }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#random = deps.random;
  }

  async round(round: number): Promise<BeaconRound | null> {
    const now = this.#clock.now();
    if (now < beaconRoundTime('sandbox', round)) return null;
    const randomness = Buffer.from(this.#random()).toString('hex');
    // The first caller's value wins; a racing second insert changes nothing.
    await this.#db.run(
      'INSERT INTO sandbox_beacon_rounds (round, randomness, produced_at) VALUES ($1, $2, $3) ON CONFLICT (round) DO NOTHING',
      [round, randomness, now],
    );
    const [row] = await this.#db.query<{ randomness: string }>(
      'SELECT randomness FROM sandbox_beacon_rounds WHERE round = $1',
      [round],
    );
    if (!row) throw new Error(`sandbox beacon round ${round} was not stored`);
    return { round, randomness: row.randomness, signature: null };
  }
}
