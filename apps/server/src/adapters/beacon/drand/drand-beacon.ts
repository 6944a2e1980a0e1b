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
  readonly #timeoutMs: number;
  constructor(relayUrl: string, fetchImpl: Fetch, timeoutMs = 10_000) {
    this.#url = `${relayUrl.replace(/\/$/, '')}/${DRAND_QUICKNET.chainHash}/public/`;
    this.#fetch = fetchImpl;
    this.#timeoutMs = timeoutMs;
  }

  async round(round: number): Promise<BeaconRound | null> {
    let text: string | null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // A relay that never answers (or stalls mid-body) must not hold up the IPO job, which waits for this.
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('drand relay timed out')), this.#timeoutMs);
      });
      const fetched = (async () => {
        const response = await this.#fetch(`${this.#url}${round}`);
        // 404 or 425 (too early): not published yet; another failure: try again later.
        return response.ok ? response.text() : null;
      })();
      text = await Promise.race([fetched, timeout]);
    } catch {
      return null; // unreachable or too slow: try again on the next tick
    } finally {
      clearTimeout(timer);
    }
    if (text === null) return null;
    const body = JSON.parse(text) as { round?: unknown; randomness?: unknown; signature?: unknown };
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
