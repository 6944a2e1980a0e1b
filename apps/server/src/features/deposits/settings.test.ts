// The deposit settings a deployment reads from its environment: the default rails and limits, paper
// mode's labelled sandbox accounts and per-process webhook secret, live mode's configured accounts, and
// start-up stopping on a malformed entry rather than running with a rail nobody meant.

import { describe, expect, it } from 'vitest';
import { DEFAULT_DEPOSIT_CHANNELS, loadDepositSettings, SANDBOX_ACCOUNTS } from './settings.ts';

describe('deposit settings', () => {
  it('offers the default rails with sandbox accounts in paper mode, and a fresh webhook secret per process', () => {
    const a = loadDepositSettings({}, 'paper');
    const b = loadDepositSettings({}, 'paper');
    expect(a.channels).toEqual(DEFAULT_DEPOSIT_CHANNELS);
    expect(a.accounts).toBe(SANDBOX_ACCOUNTS);
    expect(Object.values(a.accounts).every((account) => account.isSandbox)).toBe(true);
    expect(a.pixWebhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(a.pixWebhookSecret).not.toBe(b.pixWebhookSecret);
    expect(a.closed).toEqual([]);
    expect(a.pixExpiresInMin).toBe(30);
  });

  it('reads limits, closed rails and live receiving accounts', () => {
    const s = loadDepositSettings(
      {
        DEPOSIT_LIMITS: 'inr:bank:500-25000.50',
        DEPOSITS_CLOSED: 'BRL:offline,USD:bank',
        DEPOSIT_ACCOUNTS: JSON.stringify({
          INR: { holderName: 'Bourse Ltd', accountNumber: '123', ifsc: 'HDFC0000001' },
        }),
        PIX_WEBHOOK_SECRET: 'x'.repeat(40),
      },
      'live',
    );
    expect(s.channels.find((c) => c.currency === 'INR' && c.rail === 'bank')).toMatchObject({
      min: '500',
      max: '25000.50',
    });
    expect(s.closed).toEqual(['BRL:offline', 'USD:bank']);
    expect(s.accounts).toEqual({
      INR: {
        holderName: 'Bourse Ltd',
        bankName: '',
        accountNumber: '123',
        ifsc: 'HDFC0000001',
        branch: null,
        swift: null,
        routingNumber: null,
        pixKey: null,
        isSandbox: false,
      },
    });
    expect(s.pixWebhookSecret).toBe('x'.repeat(40));
    // Live mode without a secret refuses every notification (an empty secret never verifies).
    expect(loadDepositSettings({}, 'live')).toMatchObject({ pixWebhookSecret: '', accounts: {} });
  });

  it.each([
    [{ DEPOSIT_LIMITS: 'INR:pix:1-10' }, /DEPOSIT_LIMITS/],
    [{ DEPOSIT_LIMITS: 'INR:bank:1.234-10' }, /DEPOSIT_LIMITS/],
    [{ DEPOSIT_LIMITS: 'INR:bank:10' }, /DEPOSIT_LIMITS/],
    [{ DEPOSITS_CLOSED: 'EUR:bank' }, /DEPOSITS_CLOSED/],
    [{ DEPOSITS_CLOSED: 'INR:cash' }, /DEPOSITS_CLOSED/],
  ])('stops start-up on %o', (env, message) => {
    expect(() => loadDepositSettings(env, 'paper')).toThrow(message);
  });

  it('stops live start-up on a short webhook secret or an account without a number', () => {
    expect(() => loadDepositSettings({ PIX_WEBHOOK_SECRET: 'short' }, 'live')).toThrow(/32 characters/);
    expect(() =>
      loadDepositSettings({ DEPOSIT_ACCOUNTS: JSON.stringify({ INR: { holderName: 'Bourse Ltd' } }) }, 'live'),
    ).toThrow(/accountNumber/);
  });
});
