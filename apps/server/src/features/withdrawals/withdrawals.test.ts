// API tests of withdrawals through the real HTTP stack, on SQLite and on PostgreSQL: bank, PIX and crypto
// from request (amount held) to paid (hold posted: amount − fee to the rail, the fee to `fees`, both
// lines linked to the withdrawal), review above the threshold, rejection, cancellation and a rail's
// refusal giving the money back, every rule's refusal in both languages changing nothing, foreign ids,
// idempotent retries, the address book and the one 24-hour lock.

import { errorMessage, WITHDRAW_LOCK_MS } from '@bourse/contract';
import { testDatabases } from '@bourse/db';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { STOCK_GRANTS_ONLY, testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';
import { DEFAULT_REVIEW_ABOVE, type WithdrawSettings } from './terms.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;

const PIN = '482913';
const BTC_TESTNET = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const INDIA = {
  country: 'IN',
  holderName: 'Asha Rao',
  bankName: 'HDFC Bank',
  accountNumber: '50100012345678',
  ifsc: 'HDFC0CAGSBK',
  password: 'secret12',
};
const BRAZIL = {
  country: 'BR',
  holderName: 'João Silva',
  bankName: 'Banco do Brasil',
  branch: '1234',
  accountNumber: '12345-6',
  pixKey: 'joao@example.com',
  taxId: '111.444.777-35',
  password: 'secret12',
};

let photo = '';
beforeAll(async () => {
  photo = (
    await sharp({ create: { width: 64, height: 40, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer()
  ).toString('base64');
});

/** The answer, failing with its body when it is not a success. */
function expectOk<R extends { body: { code: number } }>(res: R): R {
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res;
}

const settings = (over: Partial<WithdrawSettings> = {}): WithdrawSettings => ({
  reviewAbove: { ...DEFAULT_REVIEW_ABOVE },
  closed: [],
  payoutEveryMs: 0,
  pauseAt: null,
  ...over,
});

describe.each(dbs)('withdrawals on $dialect', ({ open }) => {
  let t: T;
  let closeDb: () => Promise<void>;
  const start = async (over: Partial<WithdrawSettings> = {}) => {
    const db = await open();
    closeDb = () => db.close();
    // Coin wallets start empty, so each balance below is the test's own deposits.
    t = await testApp(db, { withdrawals: settings(over), paperGrants: STOCK_GRANTS_ONLY });
    return t;
  };
  afterEach(async () => {
    await t.close();
    await closeDb();
  });

  const staffToken = async (
    username: string = DEMO_STAFF.username,
    password: string = DEMO_STAFF.password,
    secret: string = DEMO_STAFF.totpSecret,
  ) => {
    const answer = await t.call('POST', '/admin/auth/login', {
      json: { username, password, totpCode: totpNow(secret, t.clock.now()) },
    });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data.token as string;
  };

  /** A customer as the rules want one: withdrawal password set, KYC verified (approved by staff). */
  const customer = async (phone: string, o: { kyc?: boolean; pin?: boolean } = {}) => {
    const token = (await t.register(phone)).body.data.token as string;
    if (o.pin !== false) {
      const set = await t.call('POST', '/user/update/withdrawPassword', {
        token,
        body: { password: PIN, confirmPassword: PIN, loginPassword: 'secret12' },
      });
      expect(set.body.code, JSON.stringify(set.body)).toBe(0);
    }
    if (o.kyc !== false) {
      const sent = await t.call('POST', '/user/auth', {
        token,
        json: { docType: 'passport', fullName: 'Asha Rao', docNumber: 'P1234567', front: photo, back: photo },
      });
      const decided = await t.call('POST', `/admin/kyc/${sent.body.data.submission.id}/decide`, {
        token: await staffToken(),
        json: { decision: 'approve', reason: 'Documents match' },
      });
      expect(decided.body.code).toBe(0);
    }
    return token;
  };
  const addBank = async (token: string, body: Record<string, string> = INDIA) => {
    const added = await t.call('POST', '/bank/add', { token, body });
    expect(added.body.code, JSON.stringify(added.body)).toBe(0);
    return added.body.data.id as number;
  };
  const addAddress = async (token: string, asset: string, network: string, address: string) => {
    const added = await t.call('POST', '/coin/withdraw/address/generate', {
      token,
      body: { asset, network, address, label: `my ${asset}`, password: 'secret12' },
    });
    expect(added.body.code, JSON.stringify(added.body)).toBe(0);
    return added.body.data.id as number;
  };
  const balance = async (token: string, wallet: string, asset: string) =>
    (
      expectOk(await t.call('POST', '/user/assets', { token })).body.data.items as { wallet: string; asset: string }[]
    ).find((b) => b.wallet === wallet && b.asset === asset);
  const lines = async (token: string, asset: string) =>
    (await t.call('GET', `/user/tx/record?asset=${asset}&limit=100`, { token })).body.data.items as {
      amount: string;
      cause: string;
      link: string;
      counterparty: string;
    }[];
  const withdrawBank = (token: string, body: Record<string, string>, lang?: string) =>
    t.call('POST', '/user/withdraw/add', { token, body: { password: PIN, ...body }, ...(lang ? { lang } : {}) });
  const statusOf = async (token: string, id: number) =>
    (await t.call('GET', `/user/withdraw/status?id=${id}`, { token })).body.data;
  const platform = (account: string, asset: string) =>
    t.app.engine.state.balance(`platform:${account}`, 'platform', asset).balance;
  /** Past the 24-hour lock of a new bank account or address. */
  const pastLock = () => t.clock.advance(WITHDRAW_LOCK_MS + 1);
  const depositCrypto = (token: string, userId: number, asset: string, amount: string) =>
    t.app.engine.submit({
      type: 'deposit',
      id: `test-deposit:${userId}:${asset}:${amount}`,
      userId: String(userId),
      wallet: 'spot',
      asset,
      amount,
      from: 'rail:chain_test',
      cause: 'deposit',
      link: `test:${token.slice(0, 4)}`,
    });
  const userIdOf = async (token: string) => (await t.call('POST', '/user/info', { token })).body.data.id as number;

  it('pays a bank withdrawal below the threshold automatically: held at request, posted with its fee line when paid', async () => {
    await start();
    const token = await customer('9123456780');
    const bankId = await addBank(token);
    pastLock();
    const config = (await t.call('GET', '/user/withdraw/config', { token })).body.data;
    expect(config).toMatchObject({ withdrawalsLockedUntil: 0, withdrawPasswordSet: true, kycStatus: 'succ' });
    expect(config.terms).toContainEqual(
      expect.objectContaining({ rail: 'bank', asset: 'INR', fee: '10', min: '100', reviewAbove: '50000', open: true }),
    );

    const sent = await withdrawBank(token, { bankId: String(bankId), currency: 'INR', amount: '1000' }, 'pt-BR');
    expect(sent.body).toMatchObject({
      code: 0,
      msg: 'Enviado',
      data: { rail: 'bank', asset: 'INR', amount: '1000.00', fee: '10.00', receive: '990.00', status: 'approved' },
    });
    const id = sent.body.data.id as number;
    expect(sent.body.data.history.map((s: { status: string }) => s.status)).toEqual([
      'requested',
      'reviewing',
      'approved',
    ]);
    expect(sent.body.data.destination).toBe('HDFC Bank •••• 5678');
    // Held at request, not yet gone.
    expect(await balance(token, 'stock', 'INR')).toMatchObject({ balance: '1000000.00', held: '1000.00' });

    await t.app.payouts.runOnce();
    const paid = await statusOf(token, id);
    expect(paid).toMatchObject({ status: 'paid', cancellable: false });
    expect(paid.payoutRef).toMatch(/^SBXUTR/);
    expect(paid.history.map((s: { status: string }) => s.status)).toEqual([
      'requested',
      'reviewing',
      'approved',
      'paying',
      'paid',
    ]);
    expect(await balance(token, 'stock', 'INR')).toMatchObject({ balance: '999000.00', held: '0.00' });
    expect(platform('rail:bank', 'INR')).toBe(99_000n);
    expect(platform('fees', 'INR')).toBe(1_000n);
    const mine = (await lines(token, 'INR')).filter((l) => l.link === `withdrawal:${id}`);
    expect(mine.map((l) => [l.amount, l.cause, l.counterparty]).sort()).toEqual([
      ['-10.00', 'fee', 'platform:fees'],
      ['-990.00', 'withdrawal', 'platform:rail:bank'],
    ]);
    // Paid once: the sandbox bank has one payout for it, of what arrives.
    const payouts = (await t.call('GET', '/test/sandbox/payouts')).body.data.items;
    expect(payouts).toEqual([
      expect.objectContaining({ idempotency_key: `withdrawal-payout-${id}`, amount: '990.00' }),
    ]);
    // Running the outbox again pays nothing more.
    await t.app.payouts.runOnce();
    expect((await t.call('GET', '/test/sandbox/payouts')).body.data.items).toHaveLength(1);
    expect(await balance(token, 'stock', 'INR')).toMatchObject({ balance: '999000.00' });
  });

  it('pays PIX to a Brazilian account and lists it with its history', async () => {
    await start();
    const token = await customer('9123456781');
    const bankId = await addBank(token, BRAZIL);
    pastLock();
    const sent = await withdrawBank(token, {
      bankId: String(bankId),
      currency: 'BRL',
      method: 'pix',
      amount: '200.50',
    });
    expect(sent.body.data).toMatchObject({ rail: 'pix', amount: '200.50', fee: '0.50', receive: '200.00' });
    expect(sent.body.data.destination).toContain('PIX joao@example.com');
    await t.app.payouts.runOnce();
    const list = (await t.call('GET', '/user/withdraw/order', { token })).body.data;
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: sent.body.data.id, status: 'paid' });
    expect(list.items[0].payoutRef).toMatch(/^E/);
    expect(await balance(token, 'stock', 'BRL')).toMatchObject({ balance: '49799.50', held: '0.00' });
    expect(platform('rail:pix', 'BRL')).toBe(20_000n);
    expect(platform('fees', 'BRL')).toBe(50n);
  });

  it('pays crypto to a saved address on the test network, with the network fee taken from the amount', async () => {
    await start();
    const token = await customer('9123456782');
    const userId = await userIdOf(token);
    await depositCrypto(token, userId, 'USDT', '500');
    const addressId = await addAddress(token, 'USDT', 'ETH', EVM);
    const listed = (await t.call('POST', '/coin/withdraw/address', { token, body: { asset: 'USDT' } })).body.data;
    expect(listed.items).toEqual([
      expect.objectContaining({
        id: addressId,
        network: 'ETH',
        networkName: 'Ethereum Sepolia (ERC-20)',
        address: EVM,
      }),
    ]);
    expect(listed.withdrawalsLockedUntil).toBeGreaterThan(t.clock.now());
    pastLock();
    const sent = await t.call('POST', '/coin/withdraw/add', {
      token,
      body: { asset: 'USDT', network: 'ETH', addressId: String(addressId), amount: '100', password: PIN },
    });
    expect(sent.body.data).toMatchObject({
      rail: 'crypto',
      amount: '100.000000',
      fee: '1.000000',
      receive: '99.000000',
    });
    expect(await balance(token, 'spot', 'USDT')).toMatchObject({ balance: '500.000000', held: '100.000000' });
    await t.app.payouts.runOnce();
    const one = (await t.call('POST', '/coin/withdraw/order', { token, body: { id: String(sent.body.data.id) } })).body
      .data;
    expect(one.items[0]).toMatchObject({ status: 'paid' });
    expect(one.items[0].payoutRef).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balance(token, 'spot', 'USDT')).toMatchObject({ balance: '400.000000', held: '0.000000' });
    expect(platform('rail:crypto-eth', 'USDT')).toBe(99_000_000n);
    expect(platform('fees', 'USDT')).toBe(1_000_000n);
    // The fiat list does not show it; the crypto list does.
    expect((await t.call('GET', '/user/withdraw/order', { token })).body.data.total).toBe(0);
    expect((await t.call('POST', '/coin/withdraw/order', { token })).body.data.total).toBe(1);
  });

  it('sends amounts above the threshold to finance staff: approve pays; reject gives the money back; both audited', async () => {
    await start();
    const token = await customer('9123456783');
    const bankId = await addBank(token);
    pastLock();
    const big = await withdrawBank(token, { bankId: String(bankId), currency: 'INR', amount: '60000' });
    const other = await withdrawBank(token, { bankId: String(bankId), currency: 'INR', amount: '70000' });
    expect(big.body.data).toMatchObject({ status: 'reviewing', cancellable: true });
    await t.app.payouts.runOnce();
    expect((await statusOf(token, big.body.data.id)).status).toBe('reviewing');

    const staff = await staffToken();
    const desk = (await t.call('GET', '/admin/withdrawals?view=review', { token: staff })).body.data.items;
    expect(desk.map((w: { id: number }) => w.id)).toEqual([other.body.data.id, big.body.data.id]);
    expect(desk[0]).toMatchObject({
      kycStatus: 'succ',
      account: '+919123456783',
      fee: '10.00',
      receive: '69990.00',
      payee: 'Asha Rao · HDFC Bank 50100012345678 · IFSC HDFC0CAGSBK',
    });
    expect(desk[0].accountCreatedAt).toBeGreaterThan(0);

    const noReason = await t.call('POST', `/admin/withdrawals/${big.body.data.id}/decide`, {
      token: staff,
      json: { decision: 'approve', reason: '' },
    });
    expect(noReason.body.error).toBe('reason_required');
    const approve = await t.call('POST', `/admin/withdrawals/${big.body.data.id}/decide`, {
      token: staff,
      json: { decision: 'approve', reason: 'Known customer, usual amount' },
    });
    expect(approve.body.code).toBe(0);
    const reject = await t.call('POST', `/admin/withdrawals/${other.body.data.id}/decide`, {
      token: staff,
      json: { decision: 'reject', reason: 'Name on the account does not match' },
    });
    expect(reject.body.code).toBe(0);
    // Deciding again is refused in both languages.
    for (const [lang, msg] of [
      ['en-US', 'This withdrawal is no longer waiting for review'],
      ['pt-BR', 'Este saque não está mais aguardando análise'],
    ]) {
      const again = await t.call('POST', `/admin/withdrawals/${other.body.data.id}/decide`, {
        token: staff,
        lang,
        json: { decision: 'approve', reason: 'Second thoughts' },
      });
      expect(again.body).toMatchObject({ error: 'withdrawal_already_decided', msg });
    }
    const rejected = await statusOf(token, other.body.data.id);
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'Name on the account does not match' });
    expect(await balance(token, 'stock', 'INR')).toMatchObject({ held: '60000.00', balance: '1000000.00' });

    await t.app.payouts.runOnce();
    const paid = await statusOf(token, big.body.data.id);
    expect(paid.status).toBe('paid');
    // The approval's note is the staff's: the customer sees the step and its time, not the note.
    expect(paid.history.find((s: { status: string }) => s.status === 'approved')).toMatchObject({ reason: '' });
    const done = (await t.call('GET', '/admin/withdrawals?view=done', { token: staff })).body.data.items;
    expect(
      done
        .find((w: { id: number }) => w.id === big.body.data.id)
        .history.find((s: { status: string }) => s.status === 'approved'),
    ).toMatchObject({ reason: 'Known customer, usual amount' });
    expect(await balance(token, 'stock', 'INR')).toMatchObject({ held: '0.00', balance: '940000.00' });
    const audit = (await t.call('GET', '/admin/audit?limit=50', { token: staff })).body.data.items as {
      action: string;
      reason: string;
      targetId: string;
    }[];
    expect(
      audit.filter((a) => a.action.startsWith('withdrawals.')).map((a) => [a.action, a.targetId, a.reason]),
    ).toEqual(
      expect.arrayContaining([
        ['withdrawals.approve', String(big.body.data.id), 'Known customer, usual amount'],
        ['withdrawals.reject', String(other.body.data.id), 'Name on the account does not match'],
      ]),
    );
    expect((await t.call('GET', '/admin/withdrawals?view=done', { token: staff })).body.data.items).toHaveLength(2);
  });

  it('refuses the desk to staff without withdrawals.review', async () => {
    await start();
    const admin = await staffToken();
    const created = await t.call('POST', '/admin/staff/create', {
      token: admin,
      json: { username: 'sam', role: 'support', reason: 'new support hire' },
    });
    const support = await staffToken('sam', created.body.data.initialPassword, created.body.data.totpSecret);
    expect((await t.call('GET', '/admin/withdrawals', { token: support })).body.error).toBe('forbidden');
    const decided = await t.call('POST', '/admin/withdrawals/1/decide', {
      token: support,
      json: { decision: 'approve', reason: 'Looks fine' },
    });
    expect(decided.body.error).toBe('forbidden');
  });

  it('lets the customer cancel while under review (money back), not after', async () => {
    await start();
    const token = await customer('9123456784');
    const bankId = await addBank(token);
    pastLock();
    const sent = await withdrawBank(token, { bankId: String(bankId), currency: 'INR', amount: '55000' });
    const cancelled = await t.call('POST', '/user/withdraw/cancel', { token, body: { id: String(sent.body.data.id) } });
    expect(cancelled.body).toMatchObject({
      code: 0,
      msg: 'Cancelled',
      data: { status: 'cancelled', cancellable: false },
    });
    expect(await balance(token, 'stock', 'INR')).toMatchObject({ held: '0.00', balance: '1000000.00' });
    const again = await t.call('POST', '/user/withdraw/cancel', { token, body: { id: String(sent.body.data.id) } });
    expect(again.body.error).toBe('withdrawal_not_cancellable');
    const auto = await withdrawBank(token, { bankId: String(bankId), currency: 'INR', amount: '500' });
    const late = await t.call('POST', '/user/withdraw/cancel', {
      token,
      lang: 'pt-BR',
      body: { id: String(auto.body.data.id) },
    });
    expect(late.body).toMatchObject({
      error: 'withdrawal_not_cancellable',
      msg: 'Este saque não pode mais ser cancelado',
    });
  });

  it('gives the money back when the rail refuses the payout, with the rail’s reason', async () => {
    await start();
    const token = await customer('9123456785');
    const bankId = await addBank(token, { ...INDIA, accountNumber: '50100012340000' });
    pastLock();
    const sent = await withdrawBank(token, { bankId: String(bankId), currency: 'INR', amount: '1000' });
    await t.app.payouts.runOnce();
    const failed = await statusOf(token, sent.body.data.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.reason).toContain('closed');
    expect(failed.history.at(-1)).toMatchObject({ status: 'failed', reason: failed.reason });
    expect(await balance(token, 'stock', 'INR')).toMatchObject({ held: '0.00', balance: '1000000.00' });
    const staff = await staffToken();
    expect((await t.call('GET', '/admin/withdrawals?view=failed', { token: staff })).body.data.items).toHaveLength(1);
  });

  it('answers a retry with the same requestId with the first withdrawal, holding once', async () => {
    await start();
    const token = await customer('9123456786');
    const bankId = await addBank(token);
    pastLock();
    const body = { bankId: String(bankId), currency: 'INR', amount: '1000', requestId: 'retry-key-0001' };
    const first = await withdrawBank(token, body);
    const second = await withdrawBank(token, body);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(await balance(token, 'stock', 'INR')).toMatchObject({ held: '1000.00' });
    const changed = await withdrawBank(token, { ...body, amount: '2000' });
    expect(changed.body.error).toBe('idempotency_key_reused');
    expect((await t.call('GET', '/user/withdraw/order', { token })).body.data.total).toBe(1);
    // The same for crypto: a retry answers the first withdrawal and holds nothing more.
    await depositCrypto(token, await userIdOf(token), 'ETH', '1');
    const addressId = await addAddress(token, 'ETH', 'ETH', EVM);
    pastLock();
    const coin = {
      asset: 'ETH',
      network: 'ETH',
      addressId: String(addressId),
      amount: '0.5',
      password: PIN,
      requestId: 'retry-key-0002',
    };
    const c1 = await t.call('POST', '/coin/withdraw/add', { token, body: coin });
    const c2 = await t.call('POST', '/coin/withdraw/add', { token, body: coin });
    expect(c2.body.data.id).toBe(c1.body.data.id);
    expect(await balance(token, 'spot', 'ETH')).toMatchObject({ held: '0.500000000000000000' });
  });

  it('answers another customer’s withdrawal, bank account and address as not found', async () => {
    await start();
    const owner = await customer('9123456787');
    const bankId = await addBank(owner);
    const addressId = await addAddress(owner, 'BTC', 'BTC', BTC_TESTNET);
    pastLock();
    const sent = await withdrawBank(owner, { bankId: String(bankId), currency: 'INR', amount: '60000' });
    const stranger = await customer('9123456788');
    await addBank(stranger);
    pastLock();
    expect((await t.call('GET', `/user/withdraw/status?id=${sent.body.data.id}`, { token: stranger })).body.error).toBe(
      'withdrawal_not_found',
    );
    expect(
      (await t.call('POST', '/coin/withdraw/order', { token: stranger, body: { id: String(sent.body.data.id) } })).body
        .error,
    ).toBe('withdrawal_not_found');
    expect(
      (await t.call('POST', '/user/withdraw/cancel', { token: stranger, body: { id: String(sent.body.data.id) } })).body
        .error,
    ).toBe('withdrawal_not_found');
    expect((await withdrawBank(stranger, { bankId: String(bankId), currency: 'INR', amount: '500' })).body.error).toBe(
      'bank_account_not_found',
    );
    const coin = await t.call('POST', '/coin/withdraw/add', {
      token: stranger,
      body: { asset: 'BTC', network: 'BTC', addressId: String(addressId), amount: '0.001', password: PIN },
    });
    expect(coin.body.error).toBe('withdraw_address_not_found');
    expect(
      (await t.call('POST', '/coin/withdraw/address/del', { token: stranger, body: { id: String(addressId) } })).body
        .error,
    ).toBe('withdraw_address_not_found');
    expect((await statusOf(owner, sent.body.data.id)).status).toBe('reviewing');
  });

  describe('refusals, each in both languages, changing nothing', () => {
    type Case = {
      name: string;
      error: string;
      setup?: { kyc?: boolean; pin?: boolean; locked?: boolean; closed?: string[] };
      body?: Record<string, string | undefined>;
    };
    const cases: Case[] = [
      { name: 'the rail closed', error: 'withdrawals_closed', setup: { closed: ['bank'] } },
      { name: 'KYC not verified', error: 'kyc_required', setup: { kyc: false } },
      { name: 'no withdrawal password set', error: 'withdraw_password_not_set', setup: { pin: false } },
      { name: 'a wrong withdrawal password', error: 'withdraw_password_incorrect', body: { password: '111111' } },
      { name: 'the 24-hour lock of a new bank account', error: 'withdrawals_locked', setup: { locked: true } },
      { name: 'an amount below the minimum', error: 'withdraw_below_minimum', body: { amount: '99.99' } },
      { name: 'an amount above the maximum', error: 'withdraw_above_maximum', body: { amount: '1000000.01' } },
      { name: 'more than the balance', error: 'insufficient_balance', body: { amount: '1000000.00', currency: 'INR' } },
      { name: 'an amount with letters', error: 'withdraw_amount_invalid', body: { amount: '12a' } },
      { name: 'an amount finer than the currency', error: 'withdraw_amount_invalid', body: { amount: '100.001' } },
      { name: 'a currency the account cannot take', error: 'withdraw_currency_mismatch', body: { currency: 'BRL' } },
      { name: 'PIX to an Indian account', error: 'withdraw_currency_mismatch', body: { method: 'pix' } },
      { name: 'an unknown bank account', error: 'bank_account_not_found', body: { bankId: '999999' } },
    ];
    it.each(cases)('$name → $error', async ({ error, setup = {}, body = {} }) => {
      await start(setup.closed ? { closed: setup.closed } : {});
      const token = await customer('9123456789', { kyc: setup.kyc ?? true, pin: setup.pin ?? true });
      const bankId = await addBank(token);
      if (!setup.locked) pastLock();
      // The whole balance as held: 1,000,000.00 INR, so 1,000,000.00 is refused only when some is held.
      if (error === 'insufficient_balance') {
        const first = await withdrawBank(token, { bankId: String(bankId), currency: 'INR', amount: '60000' });
        expect(first.body.code).toBe(0);
      }
      const before = JSON.stringify(await t.call('POST', '/user/assets', { token }));
      const list = JSON.stringify((await t.call('GET', '/user/withdraw/order', { token })).body.data);
      const msgs = new Set<string>();
      for (const lang of ['en-US', 'pt-BR'] as const) {
        const res = await withdrawBank(
          token,
          { bankId: String(bankId), currency: 'INR', amount: '1000', ...body } as Record<string, string>,
          lang,
        );
        expect(res.body.error, JSON.stringify(res.body)).toBe(error);
        expect(res.status).toBeGreaterThanOrEqual(400);
        if (!['withdrawals_locked', 'withdraw_below_minimum', 'withdraw_above_maximum'].includes(error))
          expect(res.body.msg).toBe(errorMessage(error as never, lang));
        msgs.add(res.body.msg);
      }
      expect(msgs.size).toBe(2);
      expect(JSON.stringify(await t.call('POST', '/user/assets', { token }))).toBe(before);
      expect(JSON.stringify((await t.call('GET', '/user/withdraw/order', { token })).body.data)).toBe(list);
    });

    it('says when the lock ends and what the minimum is, in each language', async () => {
      await start();
      const token = await customer('9123456790');
      const bankId = await addBank(token);
      const locked = await withdrawBank(token, { bankId: String(bankId), currency: 'INR', amount: '1000' }, 'pt-BR');
      expect(locked.body.msg).toMatch(/^Para sua segurança, os saques ficam bloqueados.*a partir de .*UTC$/);
      pastLock();
      const low = await withdrawBank(token, { bankId: String(bankId), currency: 'INR', amount: '50' });
      expect(low.body.msg).toBe('The minimum withdrawal is 100 INR');
    });
  });

  it('locks withdrawals for 24 hours after a password change and after the withdrawal password is replaced', async () => {
    await start();
    const token = await customer('9123456791');
    const bankId = await addBank(token);
    pastLock();
    const body = { bankId: String(bankId), currency: 'INR', amount: '1000' };
    const changed = await t.call('POST', '/user/update/password', {
      token,
      body: { oldPassword: 'secret12', password: 'secret34', confirmPassword: 'secret34' },
    });
    expect(changed.body.code, JSON.stringify(changed.body)).toBe(0);
    expect((await withdrawBank(token, body)).body.error).toBe('withdrawals_locked');
    pastLock();
    expect((await withdrawBank(token, body)).body.code).toBe(0);

    const repinned = await t.call('POST', '/user/update/withdrawPassword', {
      token,
      body: { password: '654321', confirmPassword: '654321', loginPassword: 'secret34' },
    });
    expect(repinned.body.code, JSON.stringify(repinned.body)).toBe(0);
    expect((await withdrawBank(token, { ...body, password: '654321' })).body.error).toBe('withdrawals_locked');
    expect((await t.call('GET', '/bank/list', { token })).body.data.withdrawalsLockedUntil).toBe(
      t.clock.now() + WITHDRAW_LOCK_MS,
    );
  });

  describe('the address book', () => {
    it('adds after the password again, refuses a bad or main-network address, deletes, and locks withdrawals 24 h', async () => {
      await start();
      const token = await customer('9123456791');
      for (const [address, network, asset, error] of [
        ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'BTC', 'BTC', 'withdraw_address_invalid'], // main network
        ['0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'ETH', 'ETH', 'withdraw_address_invalid'], // bad EIP-55
        [EVM, 'BTC', 'USDT', 'withdraw_network_unsupported'],
      ] as const) {
        const msgs = new Set<string>();
        for (const lang of ['en-US', 'pt-BR']) {
          const res = await t.call('POST', '/coin/withdraw/address/generate', {
            token,
            lang,
            body: { asset, network, address, password: 'secret12' },
          });
          expect(res.body.error, address).toBe(error);
          msgs.add(res.body.msg);
        }
        expect(msgs.size).toBe(2);
      }
      const wrong = await t.call('POST', '/coin/withdraw/address/generate', {
        token,
        body: { asset: 'BTC', network: 'BTC', address: BTC_TESTNET, password: 'nope1234' },
      });
      expect(wrong.body.error).toBe('password_incorrect');
      const empty = (await t.call('POST', '/coin/withdraw/address', { token })).body.data;
      expect(empty).toEqual({ items: [], withdrawalsLockedUntil: 0 });

      const id = await addAddress(token, 'BTC', 'BTC', BTC_TESTNET);
      const addedAt = t.clock.now();
      const list = (await t.call('POST', '/coin/withdraw/address', { token })).body.data;
      expect(list.items).toEqual([
        expect.objectContaining({ id, address: BTC_TESTNET, networkName: 'Bitcoin testnet' }),
      ]);
      expect(list.withdrawalsLockedUntil).toBe(addedAt + WITHDRAW_LOCK_MS);
      // One lock rule: /bank/list shows the address's lock too.
      expect((await t.call('GET', '/bank/list', { token })).body.data.withdrawalsLockedUntil).toBe(
        addedAt + WITHDRAW_LOCK_MS,
      );
      const del = await t.call('POST', '/coin/withdraw/address/del', { token, body: { id: String(id) } });
      expect(del.body).toMatchObject({ code: 0, msg: 'Deleted' });
      // Deleting does not lift the lock.
      expect((await t.call('POST', '/coin/withdraw/address', { token })).body.data).toEqual({
        items: [],
        withdrawalsLockedUntil: addedAt + WITHDRAW_LOCK_MS,
      });
    });

    it('refuses a crypto withdrawal while a new address locks, and to an address of another asset', async () => {
      await start();
      const token = await customer('9123456792');
      const userId = await userIdOf(token);
      await depositCrypto(token, userId, 'BTC', '1');
      const btc = await addAddress(token, 'BTC', 'BTC', BTC_TESTNET);
      const send = (body: Record<string, string>) =>
        t.call('POST', '/coin/withdraw/add', {
          token,
          body: { asset: 'BTC', network: 'BTC', addressId: String(btc), amount: '0.01', password: PIN, ...body },
        });
      expect((await send({})).body.error).toBe('withdrawals_locked');
      pastLock();
      const eth = await addAddress(token, 'ETH', 'ETH', EVM);
      pastLock();
      expect((await send({ addressId: String(eth) })).body.error).toBe('withdraw_network_unsupported');
      expect((await send({ network: 'ETH' })).body.error).toBe('withdraw_network_unsupported');
      expect((await send({ amount: '0.0001' })).body.error).toBe('withdraw_below_minimum');
      expect(await balance(token, 'spot', 'BTC')).toMatchObject({ balance: '1.00000000', held: '0.00000000' });
      const ok = await send({});
      expect(ok.body.data).toMatchObject({ amount: '0.01000000', fee: '0.00010000', receive: '0.00990000' });
    });
  });
});
