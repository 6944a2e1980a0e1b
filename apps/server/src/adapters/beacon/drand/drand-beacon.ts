// drand's quicknet through its HTTP relays (GET <relay>/<chainHash>/public/<round> →
// {"round", "randomness", "signature"}). Every answer is checked here with the League of Entropy's
// public key before it is used, so a relay can withhold a round but never forge one. A round not yet
// published answers 404 or 425 (too early): null, and the draw waits for the next tick.

import { DRAND_QUICKNET, verifyDrandQuicknetRound } from '@bourse/contract/beacon';
import type { Fetch } from '../../chain/chain-port.ts';
import type { BeaconRound, RandomnessBeacon } from '../beacon-port.ts';

export const DRAND_RELAY = 'https://api.drand.sh';

export class DrandQuicknetBeacon implements RandomnessBeacon {
  readonly source = 'drand-quicknet' as const;
  readonly #url: string;
  readonly #fetch: Fetch;
  constructor(relayUrl: string, fetchImpl: Fetch) {
    this.#url = `${relayUrl.replace(/\/$/, '')}/${DRAND_QUICKNET.chainHash}/public/`;
    this.#fetch = fetchImpl;
  }

  async round(round: number): Promise<BeaconRound | null> {
    let response: Awaited<ReturnType<Fetch>>;
    try {
      response = await this.#fetch(`${this.#url}${round}`);
    } catch {
      return null; // unreachable: try again on the next tick
    }
    if (response.status === 404 || response.status === 425) return null;
    if (!response.ok) return null;
    const body = JSON.parse(await response.text()) as { round?: unknown; randomness?: unknown; signature?: unknown };
    const { randomness, signature } = body;
    if (
      body.round !== round ||
      typeof randomness !== 'string' ||
      typeof signature !== 'string' ||
      !verifyDrandQuicknetRound(round, randomness, signature)
    )
      throw new Error(`drand round ${round}: the relay's answer is not a genuine quicknet round`);
    return { round, randomness, signature };
  }
}
