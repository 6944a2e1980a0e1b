// The sandbox PIX provider: its charges point at a sandbox location, and the notification it delivers
// when told to pay is in BCB's format, signed with the shared secret, the same for the same payment.

import { describe, expect, it } from 'vitest';
import { parsePixNotification, verifyPixSignature } from '../pix-port.ts';
import { SandboxPix } from './sandbox-pix.ts';

const TXID = '0123456789abcdef0123456789abcdef';

describe('sandbox PIX provider', () => {
  it('delivers a signed notification in BCB’s format, deterministic for one payment', async () => {
    const secret = 's'.repeat(64);
    const sandbox = new SandboxPix(secret);
    expect(await sandbox.createCharge({ txid: TXID, amount: '10.00', expiresInSec: 60, description: 'x' })).toEqual({
      txid: TXID,
      location: `pix.sandbox.invalid/v2/cob/${TXID}`,
      brCode: null,
    });
    const delivered: { body: string; signature: string }[] = [];
    sandbox.connect(async (body, signature) => {
      delivered.push({ body, signature });
    });
    await sandbox.pay(TXID, '10.00', Date.UTC(2026, 10, 27, 18, 3));
    const [first] = delivered;
    if (!first) throw new Error('nothing delivered');
    expect(verifyPixSignature(first.body, first.signature, secret)).toBe(true);
    const [payment] = parsePixNotification(JSON.parse(first.body)) ?? [];
    expect(payment).toMatchObject({ txid: TXID, amount: '10.00', paidAt: '2026-11-27T18:03:00.000Z' });
    expect(payment?.endToEndId).toMatch(/^E00000000202611271803[0-9a-f]{11}$/);
    expect(sandbox.notification(TXID, '10.00', Date.UTC(2026, 10, 27, 18, 3))).toBe(first.body);
  });

  it('refuses to pay before it is connected to the webhook', async () => {
    await expect(new SandboxPix('k').pay(TXID, '1.00', 0)).rejects.toThrow(/not connected/);
  });
});
