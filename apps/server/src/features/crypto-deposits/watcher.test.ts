// Proves the deposit watcher's promises on a database that survives a restart (SQLite in a file):
// confirmations grow with the clock, a deposit is credited once even when the server stopped between
// the engine's credit and the row's update and then restarted, and a deposit below the minimum is
// never credited.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '@bourse/db';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChainPort } from '../../adapters/chain/chain-port.ts';
import { manualClock } from '../../platform/clock.ts';
import type { NetworkCode } from '../../platform/crypto-networks.ts';
import { testApp } from '../../testing.ts';
import { loadCryptoDepositSettings } from './settings.ts';
import { creditCommandId, DepositWatcher, minimumMinor, railAccount } from './watcher.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const overrides = { cryptoDeposits: loadCryptoDepositSettings({ CRYPTO_SCAN_EVERY_MS: '0' }, 'paper') };
const START = Date.UTC(2026, 0, 5, 4, 0);

async function boot(dataDir: string, atMs: number) {
  const db = await openDb({ dataDir });
  const t = await testApp(db, overrides, atMs);
  return {
    t,
    stop: async () => {
      await t.close();
      await db.close();
    },
  };
}

async function spotBtc(t: Awaited<ReturnType<typeof testApp>>, token: string): Promise<string> {
  const items = (await t.call('POST', '/user/assets', { token })).body.data.items as {
    wallet: string;
    asset: string;
    balance: string;
  }[];
  return items.find((b) => b.wallet === 'spot' && b.asset === 'BTC')?.balance ?? '0';
}

describe('deposit watcher', () => {
  it('credits once across a restart, even after stopping between the engine credit and the row update', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bourse-crypto-'));
    dirs.push(dir);
    let run = await boot(dir, START);
    const token = (await run.t.register('9123400001')).body.data.token as string;
    const sent = await run.t.call('POST', '/coin/recharge/add', {
      token,
      body: { asset: 'BTC', network: 'BTC', amount: '1.25' },
    });
    const id = sent.body.data.id as number;
    run.t.clock.advance(60_000);
    await run.t.app.cryptoDeposits.watcher.scan();
    // The credit the watcher would send at 2 confirmations, applied as if the process then died before
    // recording it on the deposit row.
    const credit = await run.t.app.engine.submit({
      type: 'deposit',
      id: creditCommandId(id),
      userId: String((await run.t.call('GET', '/user/login/info', { token })).body.data.user.id),
      wallet: 'spot',
      asset: 'BTC',
      amount: '1.25000000',
      from: railAccount('BTC'),
      cause: 'deposit',
      link: creditCommandId(id),
    });
    expect(credit.ok).toBe(true);
    await run.stop();

    run = await boot(dir, START + 180_000);
    expect(await spotBtc(run.t, token)).toBe('1.25000000');
    const report = await run.t.app.cryptoDeposits.watcher.scan();
    expect(report).toEqual({ recorded: 0, credited: 1, failed: 0 });
    const deposit = (await run.t.call('GET', `/coin/recharge/order?id=${id}`, { token })).body.data.items[0];
    expect(deposit).toMatchObject({ status: 'credited', transferId: creditCommandId(id) });
    expect(await spotBtc(run.t, token)).toBe('1.25000000');
    await run.stop();

    // A third life: nothing left to do, the balance is what it was.
    run = await boot(dir, START + 3_600_000);
    expect(await run.t.app.cryptoDeposits.watcher.scan()).toEqual({ recorded: 0, credited: 0, failed: 0 });
    expect(await spotBtc(run.t, token)).toBe('1.25000000');
    await run.stop();
    // Three starts of the whole app on a database in files (fsync on every commit): slow on a busy machine.
  }, 90_000);

  it('follows confirmations with the clock and never credits below the minimum', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bourse-crypto-'));
    dirs.push(dir);
    const run = await boot(dir, START);
    const { t } = run;
    const token = (await t.register('9123400002')).body.data.token as string;
    const send = (amount: string) =>
      t.call('POST', '/coin/recharge/add', { token, body: { asset: 'BTC', network: 'BTC', amount } });
    const big = (await send('0.3')).body.data;
    const small = (await send('0.00009999')).body.data;
    expect(big).toMatchObject({ status: 'seen', confirmations: 0 });
    expect(small).toMatchObject({ status: 'below_minimum', confirmations: 0 });
    const state = async () =>
      Object.fromEntries(
        (
          (await t.call('GET', '/coin/recharge/order', { token })).body.data.items as {
            id: number;
            status: string;
            confirmations: number;
          }[]
        ).map((d) => [d.id, `${d.status}:${d.confirmations}`]),
      );
    // Half a block later nothing is mined yet.
    t.clock.advance(30_000);
    await t.app.cryptoDeposits.watcher.scan();
    expect(await state()).toEqual({ [big.id]: 'seen:0', [small.id]: 'below_minimum:0' });
    t.clock.advance(30_000);
    await t.app.cryptoDeposits.watcher.scan();
    expect(await state()).toEqual({ [big.id]: 'confirming:1', [small.id]: 'below_minimum:0' });
    t.clock.advance(60_000);
    await t.app.cryptoDeposits.watcher.scan();
    expect(await state()).toEqual({ [big.id]: 'credited:2', [small.id]: 'below_minimum:0' });
    expect(await spotBtc(t, token)).toBe('0.30000000');
    await run.stop();
  });

  it('rounds a minimum with more decimals than the asset up, so nothing below it is credited', () => {
    const settings = loadCryptoDepositSettings({ CRYPTO_DEPOSIT_MIN: 'BTC:0.000000015,USDT:5' }, 'paper');
    expect(minimumMinor(settings, 'BTC')).toBe(2n);
    expect(minimumMinor(settings, 'USDT')).toBe(5_000_000n);
    expect(minimumMinor(settings, 'ETH')).toBe(5_000_000_000_000_000n);
  });
});

describe('deposit watcher with a chain that answers what the test says', () => {
  it('records a refused credit as failed with the engine code, and keeps a deposit the chain stops showing', async () => {
    const db = await openDb({ dataDir: null });
    try {
      const clock = manualClock(START);
      await db.run(
        "INSERT INTO users (id, phone, area_code, national_number, password_hash, invite_code, created_at, updated_at) VALUES (7, '+919123400003', '91', '9123400003', 'x', 'INV7', 0, 0)",
      );
      await db.run(
        "INSERT INTO crypto_deposit_addresses (user_id, network, derivation_index, address, created_at) VALUES (7, 'BTC', 0, 'tb1qours', 0), (7, 'ETH', 0, '0xOurs', 0)",
      );
      let transfers = [
        {
          asset: 'BTC',
          txid: 'aa'.repeat(32),
          outputIndex: 0,
          address: 'tb1qours',
          amountMinor: 50_000n,
          blockHeight: 100,
        },
        {
          asset: 'BTC',
          txid: 'bb'.repeat(32),
          outputIndex: 1,
          address: 'tb1qours',
          amountMinor: 60_000n,
          blockHeight: 101,
        },
        // Someone else's address: not ours to record.
        {
          asset: 'BTC',
          txid: 'cc'.repeat(32),
          outputIndex: 0,
          address: 'tb1qtheirs',
          amountMinor: 70_000n,
          blockHeight: 100,
        },
      ];
      let tip = 100;
      const submitted: string[] = [];
      const logged: string[] = [];
      const watcher = new DepositWatcher({
        db,
        clock,
        // An engine that refuses every credit, as it would an asset it does not know.
        engine: {
          submit: async (command: { id: string }) => {
            submitted.push(command.id);
            return { ok: false, code: 'unknown_asset' };
          },
        } as never,
        ports: new Map<NetworkCode, ChainPort>([
          // An unreachable chain first: its failure is logged and the others are still scanned.
          [
            'ETH',
            {
              network: 'ETH',
              assets: ['ETH', 'USDT'],
              tipHeight: async () => {
                throw new Error('rpc down');
              },
              incoming: async () => [],
            },
          ],
          ['BTC', { network: 'BTC', assets: ['BTC'], tipHeight: async () => tip, incoming: async () => transfers }],
        ]),
        settings: overrides.cryptoDeposits,
        log: (message) => logged.push(message),
      });
      expect(await watcher.scan()).toEqual({ recorded: 2, credited: 0, failed: 0 });
      expect(logged).toEqual(['crypto deposit scan of ETH failed']);
      // The second one leaves the chain's answer (a reorganisation): it keeps its last state.
      transfers = transfers.slice(0, 1);
      tip = 102;
      expect(await watcher.scan()).toEqual({ recorded: 0, credited: 0, failed: 1 });
      const rows = await db.query<{ txid: string; status: string; reason: string; confirmations: number }>(
        'SELECT txid, status, reason, confirmations FROM crypto_deposits ORDER BY id',
      );
      expect(rows.map((r) => [r.txid.slice(0, 2), r.status, r.reason, Number(r.confirmations)])).toEqual([
        ['aa', 'failed', 'unknown_asset', 3],
        ['bb', 'seen', '', 0],
      ]);
      expect(submitted).toEqual(['crypto-deposit:1']);
    } finally {
      await db.close();
    }
  });
});
