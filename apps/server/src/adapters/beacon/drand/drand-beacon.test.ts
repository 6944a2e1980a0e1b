import { QUICKNET_123 } from '@bourse/contract/beacon-fixtures';
import { describe, expect, it } from 'vitest';
import type { Fetch } from '../../chain/chain-port.ts';
import { DrandQuicknetBeacon } from './drand-beacon.ts';

/** Answers like a drand relay: round 123 as published (a real round), 425 for later rounds. */
function relay(answer: (round: number) => { status: number; body?: unknown }): { fetch: Fetch; urls: string[] } {
  const urls: string[] = [];
  const fetch: Fetch = async (url) => {
    urls.push(url);
    const round = Number(url.split('/').pop());
    const { status, body } = answer(round);
    return { ok: status === 200, status, text: async () => JSON.stringify(body ?? {}) };
  };
  return { fetch, urls };
}

describe('DrandQuicknetBeacon', () => {
  it('fetches a round from the chain path and accepts it when its signature verifies', async () => {
    const { fetch, urls } = relay(() => ({ status: 200, body: QUICKNET_123 }));
    const beacon = new DrandQuicknetBeacon('https://relay.example/', fetch);
    expect(await beacon.round(123)).toEqual(QUICKNET_123);
    expect(urls).toEqual([
      'https://relay.example/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/123',
    ]);
  });

  it('answers null for a round not yet published and when the relay cannot be reached', async () => {
    expect(await new DrandQuicknetBeacon('https://r', relay(() => ({ status: 425 })).fetch).round(9)).toBeNull();
    expect(await new DrandQuicknetBeacon('https://r', relay(() => ({ status: 404 })).fetch).round(9)).toBeNull();
    const down: Fetch = async () => {
      throw new Error('ECONNREFUSED');
    };
    expect(await new DrandQuicknetBeacon('https://r', down).round(9)).toBeNull();
    const silent: Fetch = () => new Promise(() => undefined);
    expect(await new DrandQuicknetBeacon('https://r', silent, 20).round(9)).toBeNull();
    // Headers arrive, then the body stalls.
    const stalls: Fetch = async () => ({ ok: true, status: 200, text: () => new Promise(() => undefined) });
    expect(await new DrandQuicknetBeacon('https://r', stalls, 20).round(9)).toBeNull();
  });

  it('refuses a forged round: another round number, or randomness the signature does not give', async () => {
    const moved = relay(() => ({ status: 200, body: { ...QUICKNET_123, round: 124 } }));
    await expect(new DrandQuicknetBeacon('https://r', moved.fetch).round(124)).rejects.toThrow(/not a genuine/);
    const chosen = relay(() => ({ status: 200, body: { ...QUICKNET_123, randomness: '00'.repeat(32) } }));
    await expect(new DrandQuicknetBeacon('https://r', chosen.fetch).round(123)).rejects.toThrow(/not a genuine/);
  });
});
