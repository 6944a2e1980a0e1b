// Settings read from the environment: the engine's snapshot and the reconciliation's settings, and their
// refusals.

import { expect, it } from 'vitest';
import { loadConfig, loadPerpetualSettings, loadSpotSettings } from './config.ts';

it('takes snapshots every 100,000 commands on a worker unless told otherwise', () => {
  expect(loadConfig({})).toMatchObject({ engineSnapshotEvery: 100_000, engineSnapshots: 'worker' });
  expect(loadConfig({ ENGINE_SNAPSHOT_EVERY: '5000', ENGINE_SNAPSHOTS: 'writer' })).toMatchObject({
    engineSnapshotEvery: 5_000,
    engineSnapshots: 'writer',
  });
});

it('refuses a snapshot interval that is not a positive integer', () => {
  for (const bad of ['0', '-5', '1.5', 'many'])
    expect(() => loadConfig({ ENGINE_SNAPSHOT_EVERY: bad })).toThrow(
      /ENGINE_SNAPSHOT_EVERY must be a positive integer/,
    );
});

it('refuses a snapshot taker it does not know', () => {
  expect(loadConfig({ ENGINE_SNAPSHOTS: 'Writer' }).engineSnapshots).toBe('writer');
  expect(() => loadConfig({ ENGINE_SNAPSHOTS: 'thread' })).toThrow(/ENGINE_SNAPSHOTS must be worker or writer/);
});

it('reconciles every 60 minutes unless told otherwise, and 0 turns the scheduled runs off', () => {
  expect(loadConfig({}).reconcileEveryMin).toBe(60);
  expect(loadConfig({ RECONCILE_EVERY_MIN: '15' }).reconcileEveryMin).toBe(15);
  expect(loadConfig({ RECONCILE_EVERY_MIN: '0' }).reconcileEveryMin).toBe(0);
});

it('refuses a reconciliation interval that is not whole minutes from 0 to a week', () => {
  for (const bad of ['-1', '1.5', 'hourly', '10081'])
    expect(() => loadConfig({ RECONCILE_EVERY_MIN: bad })).toThrow(
      /RECONCILE_EVERY_MIN must be a whole number of minutes from 0 to 10080/,
    );
});

it('reads RATE_LIMITS over sane defaults and refuses unknown keys or counts below 1', () => {
  expect(loadConfig({}).rateLimits).toEqual({
    windowSec: 60,
    global: 600,
    signIn: 10,
    register: 5,
    codeSend: 5,
    order: 120,
  });
  expect(loadConfig({ RATE_LIMITS: 'register:20, sign_in:3,WINDOW_SEC:30' }).rateLimits).toMatchObject({
    register: 20,
    signIn: 3,
    windowSec: 30,
    global: 600,
  });
  expect(() => loadConfig({ RATE_LIMITS: 'logins:3' })).toThrow(/RATE_LIMITS knows/);
  expect(() => loadConfig({ RATE_LIMITS: 'register:0' })).toThrow(/RATE_LIMITS must be a positive integer/);
});

it('trusts no proxy unless TRUST_PROXY names one by address or range', () => {
  expect(loadConfig({}).trustProxy).toBe(false);
  expect(loadConfig({ TRUST_PROXY: ' 10.0.0.1, 172.16.0.0/12,loopback,::1 ' }).trustProxy).toEqual([
    '10.0.0.1',
    '172.16.0.0/12',
    'loopback',
    '::1',
  ]);
  for (const bad of ['true', '1', '*', 'proxy.local', '10.0.0.0/8/1'])
    expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY takes proxy addresses/);
});

it('keeps the captcha cheap in paper mode and dearer in live mode, both settable', () => {
  expect(loadConfig({}).captcha).toEqual({ cost: 50, tries: 200 });
  expect(loadConfig({ MODE: 'live' }).captcha).toEqual({ cost: 1_000, tries: 4_000 });
  expect(loadConfig({ CAPTCHA_COST: '10', CAPTCHA_TRIES: '30' }).captcha).toEqual({ cost: 10, tries: 30 });
  expect(() => loadConfig({ CAPTCHA_COST: '0' })).toThrow(/CAPTCHA_COST/);
});

it('keeps the journal behind the snapshots a week unless told otherwise; all keeps it whole', () => {
  expect(loadConfig({}).engineJournalRetentionHours).toBe(168);
  expect(loadConfig({ ENGINE_JOURNAL_RETENTION_HOURS: '24' }).engineJournalRetentionHours).toBe(24);
  expect(loadConfig({ ENGINE_JOURNAL_RETENTION_HOURS: 'all' }).engineJournalRetentionHours).toBeNull();
  for (const bad of ['0', '-1', '1.5', 'forever'])
    expect(() => loadConfig({ ENGINE_JOURNAL_RETENTION_HOURS: bad })).toThrow(
      /ENGINE_JOURNAL_RETENTION_HOURS must be a positive integer/,
    );
});

it('reads the withdrawal settings: review thresholds over the defaults, closed rails, and a pause point only with test hooks', () => {
  const config = loadConfig({
    WITHDRAW_REVIEW_ABOVE: 'INR:1000,BTC:0.5',
    WITHDRAWALS_CLOSED: 'pix, crypto:BTC',
    WITHDRAW_PAYOUT_EVERY_MS: '0',
    BOURSE_TEST_PAYOUT_PAUSE: 'after_accept',
  });
  expect(config.withdrawals).toEqual({
    reviewAbove: { INR: '1000', BRL: '5000', BTC: '0.5', ETH: '2', USDT: '5000' },
    closed: ['pix', 'crypto:BTC'],
    payoutEveryMs: 0,
    // Without BOURSE_TEST_HOOKS the crash test's pause point is ignored: a live server never pauses a payout.
    pauseAt: null,
  });
  expect(loadConfig({ BOURSE_TEST_HOOKS: '1', BOURSE_TEST_PAYOUT_PAUSE: 'after_post' }).withdrawals.pauseAt).toBe(
    'after_post',
  );
  expect(() => loadConfig({ WITHDRAW_REVIEW_ABOVE: 'INR:lots' })).toThrow(/not a decimal/);
});

it('reads the API key sealing key and the trading API limits', () => {
  expect(loadConfig({}).apiKeySealingKey).toHaveLength(32);
  expect(loadConfig({ MODE: 'live' }).apiKeySealingKey).toBeNull();
  expect(loadConfig({ MODE: 'live', API_KEY_ENCRYPTION_KEY: 'ab'.repeat(32) }).apiKeySealingKey?.toString('hex')).toBe(
    'ab'.repeat(32),
  );
  expect(() => loadConfig({ API_KEY_ENCRYPTION_KEY: 'short' })).toThrow(/64 hex/);
  expect(loadConfig({}).openApiLimits).toEqual({ perKeyPerMin: 1_200, publicPerIpPerMin: 2_400 });
  expect(loadConfig({ OPEN_API_KEY_PER_MIN: '60' }).openApiLimits.perKeyPerMin).toBe(60);
  expect(() => loadConfig({ OPEN_API_PUBLIC_PER_MIN: '0' })).toThrow(/OPEN_API_PUBLIC_PER_MIN/);
});

it('charges crypto spot 10/10 bp with a 5 USDT minimum unless told otherwise, and refuses malformed values', () => {
  expect(loadSpotSettings({})).toEqual({ makerFeeBps: 10, takerFeeBps: 10, minNotional: '5' });
  expect(loadSpotSettings({ SPOT_FEE_BPS: 'maker:2,taker:7', SPOT_MIN_NOTIONAL: '10.5' })).toEqual({
    makerFeeBps: 2,
    takerFeeBps: 7,
    minNotional: '10.5',
  });
  expect(() => loadSpotSettings({ SPOT_FEE_BPS: 'MAKER:-1' })).toThrow();
  expect(() => loadSpotSettings({ SPOT_MIN_NOTIONAL: 'five' })).toThrow();
});

it('charges perpetuals 2/5 bp, caps new accounts at 20x and seeds the insurance fund with 1,000,000 USDT unless told otherwise', () => {
  expect(loadPerpetualSettings({})).toEqual({
    makerFeeBps: 2,
    takerFeeBps: 5,
    newAccountMaxLeverage: 20,
    insuranceSeed: '1000000',
  });
  expect(
    loadPerpetualSettings({
      PERP_FEE_BPS: 'MAKER:1,TAKER:4',
      PERP_NEW_ACCOUNT_MAX_LEVERAGE: '10',
      PERP_INSURANCE_SEED: '0',
    }),
  ).toEqual({ makerFeeBps: 1, takerFeeBps: 4, newAccountMaxLeverage: 10, insuranceSeed: '0' });
  for (const bad of ['0', '126', '2.5', 'x'])
    expect(() => loadPerpetualSettings({ PERP_NEW_ACCOUNT_MAX_LEVERAGE: bad }), bad).toThrow();
  expect(() => loadPerpetualSettings({ PERP_INSURANCE_SEED: 'lots' })).toThrow();
});
