// Crash test of the payout outbox (docs/decisions/0020): the real server (main.ts) pays an approved
// withdrawal and is killed with SIGKILL at each point between the rail's acceptance and the withdrawal
// being marked paid, then restarted on the same data. A test hook (BOURSE_TEST_PAYOUT_PAUSE) makes the
// payout stop at the chosen point and say so in DATA_DIR/payout-paused; the test then kills it.
//   run 1: pauses after the sandbox rail accepted the payout, before the hold is posted → kill -9
//   run 2: the outbox asks the rail again with the same key (deduped), posts the hold, pauses before
//          marking it paid → kill -9
//   run 3: posts again (idempotent, moves nothing) and marks it paid.
// What must hold: exactly one payout at the sandbox rail, the withdrawal paid, and the hold posted once
// (the customer's balance down by the amount once; one withdrawal line and one fee line). On SQLite (the
// data directory) and, when reachable, on a fresh PostgreSQL database.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPostgresReachable, TEST_DATABASE_URL } from '@bourse/db';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import {
  freshPgDatabase,
  HttpClient,
  registerCustomer,
  type ServerProcess,
  spawnServer,
} from '../../testing-server.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

const PIN = '482913';
const cleanUps: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanUps) await c().catch(() => undefined);
}, 60_000);
const targets: ('sqlite' | 'postgres')[] = ['sqlite'];
if (await isPostgresReachable()) targets.push('postgres');

const ok = (what: string, a: { status: number; body: { code: number; data: unknown } }) => {
  if (a.body.code !== 0) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.body)}`);
  return a.body.data as any;
};

type Place = { dataDir: string; databaseUrl: string | undefined };

const startAt = (place: Place, pause: 'after_accept' | 'after_post' | null) =>
  spawnServer({
    ...place,
    env: { LOG_LEVEL: 'warn', WITHDRAW_PAYOUT_EVERY_MS: '100', ...(pause ? { BOURSE_TEST_PAYOUT_PAUSE: pause } : {}) },
  });

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the payout stands at `point`, then kills the process with SIGKILL. */
async function killAt(server: ServerProcess, dataDir: string, point: string) {
  const marker = join(dataDir, 'payout-paused');
  await waitFor(point, async () => (existsSync(marker) && readFileSync(marker, 'utf8') === point ? true : undefined));
  rmSync(marker);
  await server.kill();
}

describe.each(targets)('payout outbox under kill -9 on %s', (target) => {
  it('pays once and posts the hold once when killed after the rail accepted and again before marking paid', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bourse-payout-crash-'));
    cleanUps.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (target === 'postgres') {
      const fresh = await freshPgDatabase(TEST_DATABASE_URL, 'payout_crash');
      cleanUps.push(fresh.drop);
      databaseUrl = fresh.url;
    }
    const start = (pause: 'after_accept' | 'after_post' | null) => startAt({ dataDir, databaseUrl }, pause);
    let server = await start('after_accept');
    cleanUps.push(() => server.kill());
    let client = new HttpClient(server.baseUrl);
    const { token } = await registerCustomer(client, '9123456700', { pin: '111111' });
    ok(
      'withdrawal password',
      await client.request('POST', '/user/update/withdrawPassword', {
        token,
        json: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
      }),
    );
    const photo = (
      await sharp({ create: { width: 64, height: 40, channels: 3, background: '#3366cc' } })
        .jpeg()
        .toBuffer()
    ).toString('base64');
    const kyc = ok(
      'kyc',
      await client.request('POST', '/user/auth', {
        token,
        json: { docType: 'passport', fullName: 'Asha Rao', docNumber: 'P1234567', front: photo, back: photo },
      }),
    );
    const bank = ok(
      'bank',
      await client.request('POST', '/bank/add', {
        token,
        json: {
          country: 'IN',
          holderName: 'Asha Rao',
          bankName: 'HDFC Bank',
          accountNumber: '50100012345678',
          ifsc: 'HDFC0CAGSBK',
          password: 'secret12',
        },
      }),
    );
    // Past the new account's 24-hour lock; the answer says what time the server's clock shows.
    const { now } = ok('clock', await client.request('POST', '/test/clock/advance', { json: { ms: 25 * 3_600_000 } }));
    const staff = ok(
      'staff sign-in',
      await client.request('POST', '/admin/auth/login', {
        json: {
          username: DEMO_STAFF.username,
          password: DEMO_STAFF.password,
          totpCode: totpNow(DEMO_STAFF.totpSecret, now),
        },
      }),
    );
    ok(
      'kyc approval',
      await client.request('POST', `/admin/kyc/${kyc.submission.id}/decide`, {
        token: staff.token,
        json: { decision: 'approve', reason: 'Documents match' },
      }),
    );
    const sent = ok(
      'withdraw',
      await client.request('POST', '/user/withdraw/add', {
        token,
        json: { bankId: bank.id, currency: 'INR', amount: '1000', password: PIN },
      }),
    );
    expect(sent).toMatchObject({ status: 'approved', amount: '1000.00', fee: '10.00', receive: '990.00' });
    const id = sent.id as number;

    // Run 1: the rail accepted; killed before the hold is posted.
    await killAt(server, dataDir, 'after_accept');
    client.close();

    // Run 2: asked again with the same key, posted, killed before marking paid.
    server = await start('after_post');
    client = new HttpClient(server.baseUrl);
    await killAt(server, dataDir, 'after_post');
    client.close();

    // Run 3: finishes.
    server = await start(null);
    client = new HttpClient(server.baseUrl);
    try {
      const paid = await waitFor('paid', async () => {
        const w = ok('status', await client.request('GET', `/user/withdraw/status?id=${id}`, { token }));
        return w.status === 'paid' ? w : undefined;
      });
      expect(paid.history.map((s: { status: string }) => s.status)).toEqual([
        'requested',
        'reviewing',
        'approved',
        'paying',
        'paid',
      ]);
      const payouts = ok('payouts', await client.request('GET', '/test/sandbox/payouts')).items;
      expect(payouts).toEqual([
        expect.objectContaining({ idempotency_key: `withdrawal-payout-${id}`, amount: '990.00', outcome: 'paid' }),
      ]);
      expect(paid.payoutRef).toBe(payouts[0].provider_ref);
      const inr = ok('assets', await client.request('POST', '/user/assets', { token })).items.find(
        (b: { wallet: string; asset: string }) => b.wallet === 'stock' && b.asset === 'INR',
      );
      expect(inr).toMatchObject({ balance: '999000.00', held: '0.00' });
      const lines = ok(
        'lines',
        await client.request('GET', '/user/tx/record?asset=INR&limit=100', { token }),
      ).items.filter((l: { link: string }) => l.link === `withdrawal:${id}`);
      expect(lines.map((l: { amount: string; cause: string }) => [l.amount, l.cause]).sort()).toEqual([
        ['-10.00', 'fee'],
        ['-990.00', 'withdrawal'],
      ]);
    } finally {
      client.close();
      await server.stop();
    }
  }, 240_000);
});
