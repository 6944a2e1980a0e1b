// The sandbox payout rails dedupe as a real provider does: the first request with an idempotency key
// decides the outcome, and the same key asked again answers it without paying again. On both databases.

import { migrate, testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import type { PayoutRequest } from '../../../features/withdrawals/payout-rail.ts';
import { manualClock } from '../../../platform/clock.ts';
import { SandboxChainPayouts } from '../../chain/sandbox/sandbox-chain-payouts.ts';
import { SandboxBankPayouts } from './sandbox-bank-payouts.ts';
import { sandboxPayouts } from './sandbox-payout-ledger.ts';

const dbs = await testDatabases();

const bank = (key: string, accountNumber: string): PayoutRequest => ({
  idempotencyKey: key,
  rail: 'bank',
  asset: 'INR',
  network: null,
  amount: '990.00',
  payoutTo: JSON.stringify({ country: 'IN', holderName: 'Asha Rao', accountNumber, ifsc: 'HDFC0CAGSBK' }),
});

describe.each(dbs)('sandbox payout rails on $dialect', ({ open }) => {
  let close: () => Promise<void> = async () => {};
  afterEach(() => close());
  const start = async () => {
    const db = await open();
    close = () => db.close();
    await migrate(db);
    return db;
  };

  it('pays a key once: asked again, even with another body, it answers the first outcome', async () => {
    const db = await start();
    const clock = manualClock();
    const rail = new SandboxBankPayouts(db, clock, 'bank');
    const first = await rail.pay(bank('k-1', '50100012345678'));
    expect(first).toMatchObject({ outcome: 'paid' });
    clock.advance(1000);
    expect(await rail.pay(bank('k-1', '50100012345678'))).toEqual(first);
    // A provider keys on the key alone: a different body under it is not a second payout.
    expect(await rail.pay({ ...bank('k-1', '50100012340000'), amount: '5.00' })).toEqual(first);
    expect(await sandboxPayouts(db)).toEqual([expect.objectContaining({ idempotency_key: 'k-1', amount: '990.00' })]);
  });

  it('refuses a closed account for good, and the same key keeps the refusal', async () => {
    const db = await start();
    const rail = new SandboxBankPayouts(db, manualClock(), 'bank');
    const refused = await rail.pay(bank('k-2', '50100012340000'));
    expect(refused).toMatchObject({ outcome: 'failed' });
    expect(await rail.pay(bank('k-2', '50100012340000'))).toEqual(refused);
  });

  it('answers a chain payout with a transaction hash in the network’s format, the same for the same key', async () => {
    const db = await start();
    const chain = new SandboxChainPayouts(db, manualClock());
    const to = (network: 'BTC' | 'ETH', key: string): PayoutRequest => ({
      idempotencyKey: key,
      rail: 'crypto',
      asset: network,
      network,
      amount: '0.5',
      payoutTo: JSON.stringify({ network, address: 'x' }),
    });
    const eth = await chain.pay(to('ETH', 'k-3'));
    const btc = await chain.pay(to('BTC', 'k-4'));
    expect(eth.outcome === 'paid' && eth.providerRef).toMatch(/^0x[0-9a-f]{64}$/);
    expect(btc.outcome === 'paid' && btc.providerRef).toMatch(/^[0-9a-f]{64}$/);
    expect(await chain.pay(to('ETH', 'k-3'))).toEqual(eth);
    expect(await sandboxPayouts(db)).toHaveLength(2);
  });
});
