// The Esplora adapter's reading of recorded responses (no network): GET /blocks/tip/height and GET
// /address/:a/txs in the API's documented shape (recorded/address-txs.json: one confirmed transaction
// paying us one output among two, one unconfirmed one with an OP_RETURN output first).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { confirmationsAt, type Fetch } from '../chain-port.ts';
import { EsploraBtcChain } from './esplora-btc.ts';

const BASE = 'https://esplora.example/testnet/api';
const OURS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const recorded: Record<string, string> = {
  [`${BASE}/blocks/tip/height`]: '2811652',
  [`${BASE}/address/${OURS}/txs`]: readFileSync(new URL('./recorded/address-txs.json', import.meta.url), 'utf8'),
};

function recordedFetch(asked: string[]): Fetch {
  return async (url) => {
    asked.push(url);
    const body = recorded[url];
    return { ok: body !== undefined, status: body === undefined ? 404 : 200, text: async () => body ?? 'not found' };
  };
}

describe('Esplora BTC chain adapter', () => {
  it('reads the tip and the payments to our address: the output index, satoshis, block or mempool', async () => {
    const asked: string[] = [];
    const chain = new EsploraBtcChain(`${BASE}/`, recordedFetch(asked));
    const tip = await chain.tipHeight();
    expect(tip).toBe(2_811_652);
    const transfers = await chain.incoming([OURS]);
    expect(transfers).toEqual([
      {
        asset: 'BTC',
        txid: '9f2c45a12db6a4c1e5b7f1c9d7f1f3e6e0a2b3c4d5e6f708192a3b4c5d6e7f80',
        outputIndex: 0,
        address: OURS,
        amountMinor: 1_500_000n,
        blockHeight: 2_811_651,
      },
      {
        asset: 'BTC',
        txid: '0aa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f',
        outputIndex: 1,
        address: OURS,
        amountMinor: 25_000n,
        blockHeight: null,
      },
    ]);
    expect(transfers.map((t) => confirmationsAt(t, tip))).toEqual([2, 0]);
    expect(asked).toEqual([`${BASE}/blocks/tip/height`, `${BASE}/address/${OURS}/txs`]);
  });

  it('fails loudly on an HTTP error rather than reading it as "no payments"', async () => {
    const chain = new EsploraBtcChain(BASE, recordedFetch([]));
    await expect(chain.incoming(['tb1qunknown'])).rejects.toThrow(/HTTP 404/);
  });
});
