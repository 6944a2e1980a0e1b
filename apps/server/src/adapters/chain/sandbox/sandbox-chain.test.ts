// Proves the sandbox chain's timing and faucet: blocks follow the injected clock per network, a sent
// transaction is in the first block after it, only our addresses' payments are answered, and a repeated
// request key sends nothing new.

import { openDb } from '@bourse/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../platform/clock.ts';
import { confirmationsAt } from '../chain-port.ts';
import { SandboxChain } from './sandbox-chain.ts';

let db: Awaited<ReturnType<typeof openDb>>;
beforeAll(async () => {
  db = await openDb({ dataDir: null });
});
afterAll(() => db.close());

describe('sandbox chain', () => {
  it('mines a block every blockMs per network and confirms a payment block by block', async () => {
    const clock = manualClock(600_000);
    let counter = 0;
    const chain = new SandboxChain({
      db,
      clock,
      blockMs: { BTC: 60_000, ETH: 12_000 },
      random: (n) => new Uint8Array(n).fill(++counter),
    });
    expect(chain.tipHeight('BTC')).toBe(10);
    expect(chain.tipHeight('ETH')).toBe(50);
    const sent = await chain.send({
      network: 'BTC',
      asset: 'BTC',
      address: 'tb1qours',
      amountMinor: 5n,
      requestKey: 'k1',
    });
    expect(sent).toEqual({ txid: '01'.repeat(32), outputIndex: 0 });
    // The same request key answers the first transaction and sends nothing.
    expect(
      await chain.send({ network: 'BTC', asset: 'BTC', address: 'tb1qours', amountMinor: 9n, requestKey: 'k1' }),
    ).toEqual(sent);
    await chain.send({ network: 'BTC', asset: 'BTC', address: 'tb1qtheirs', amountMinor: 7n, requestKey: null });
    const eth = await chain.send({
      network: 'ETH',
      asset: 'USDT',
      address: '0xOurs',
      amountMinor: 3n,
      requestKey: null,
    });
    expect(eth.txid).toMatch(/^0x/);

    const port = chain.port('BTC');
    expect(port.assets).toEqual(['BTC']);
    const seen = async () => {
      const tip = await port.tipHeight();
      return (await port.incoming(['tb1qours'])).map((t) => [t.txid, t.amountMinor, confirmationsAt(t, tip)]);
    };
    expect(await seen()).toEqual([[sent.txid, 5n, 0]]);
    clock.advance(59_999);
    expect(await seen()).toEqual([[sent.txid, 5n, 0]]);
    clock.advance(1);
    expect(await seen()).toEqual([[sent.txid, 5n, 1]]);
    clock.advance(120_000);
    expect(await seen()).toEqual([[sent.txid, 5n, 3]]);
    expect(chain.port('ETH').assets).toEqual(['ETH', 'USDT']);
    expect((await chain.port('ETH').incoming(['0xOurs'])).map((t) => t.asset)).toEqual(['USDT']);
  });
});
