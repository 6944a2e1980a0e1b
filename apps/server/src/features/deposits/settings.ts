// Which fiat deposit rails a deployment offers, per currency, with their limits and receiving accounts.
// Read once from the environment by config.ts (nothing else here reads it). Paper mode has clearly
// labelled sandbox receiving accounts; live mode offers a bank rail only where DEPOSIT_ACCOUNTS names
// the account, and PIX only with a configured provider.

import { randomBytes } from 'node:crypto';
import { DEPOSIT_CURRENCIES, DEPOSIT_RAILS, type DepositCurrency, type DepositRail } from '@bourse/contract';

export type ReceivingAccount = {
  holderName: string;
  bankName: string;
  accountNumber: string;
  ifsc: string | null;
  branch: string | null;
  swift: string | null;
  routingNumber: string | null;
  pixKey: string | null;
  isSandbox: boolean;
};

export type DepositChannelSetting = {
  currency: DepositCurrency;
  rail: DepositRail;
  /** Decimal strings in the currency. */
  min: string;
  max: string;
  /** A lower maximum between fromHour and toHour in timeZone (PIX at night: DOMAIN.md). */
  night: { max: string; fromHour: number; toHour: number; timeZone: string } | null;
};

export type DepositSettings = {
  channels: DepositChannelSetting[];
  /** "CURRENCY:rail" entries closed for new deposits (deposits_closed). */
  closed: string[];
  /** Receiving accounts per currency (bank and offline deposits). */
  accounts: Partial<Record<DepositCurrency, ReceivingAccount>>;
  pixExpiresInMin: number;
  /** The shared secret of the PIX webhook's HMAC-SHA256 signature. */
  pixWebhookSecret: string;
  pixMerchantName: string;
  pixMerchantCity: string;
};

const PIX_NIGHT = { max: '1000.00', fromHour: 20, toHour: 6, timeZone: 'America/Sao_Paulo' };

export const DEFAULT_DEPOSIT_CHANNELS: readonly DepositChannelSetting[] = [
  { currency: 'INR', rail: 'bank', min: '100.00', max: '1000000.00', night: null },
  { currency: 'INR', rail: 'offline', min: '100.00', max: '200000.00', night: null },
  { currency: 'BRL', rail: 'pix', min: '1.00', max: '100000.00', night: PIX_NIGHT },
  { currency: 'BRL', rail: 'bank', min: '10.00', max: '1000000.00', night: null },
  { currency: 'BRL', rail: 'offline', min: '10.00', max: '50000.00', night: null },
  { currency: 'USD', rail: 'bank', min: '10.00', max: '1000000.00', night: null },
];

/** Paper mode's receiving accounts: fictitious, and saying so in their names. */
export const SANDBOX_ACCOUNTS: Record<DepositCurrency, ReceivingAccount> = {
  INR: {
    holderName: 'Bourse Paper Trading (SANDBOX)',
    bankName: 'Sandbox Bank — not a real bank',
    accountNumber: '000011112222',
    ifsc: 'SBOX0000001',
    branch: null,
    swift: null,
    routingNumber: null,
    pixKey: null,
    isSandbox: true,
  },
  BRL: {
    holderName: 'Bourse Paper Trading (SANDBOX)',
    bankName: 'Banco Sandbox — fictício',
    accountNumber: '12345-6',
    ifsc: null,
    branch: '0001',
    swift: null,
    routingNumber: null,
    pixKey: null,
    isSandbox: true,
  },
  USD: {
    holderName: 'Bourse Paper Trading (SANDBOX)',
    bankName: 'Sandbox Bank N.A. — not a real bank',
    accountNumber: '000111222333',
    ifsc: null,
    branch: null,
    swift: 'SBOXUS00XXX',
    routingNumber: '000000000',
    pixKey: null,
    isSandbox: true,
  },
};

const decimal = /^\d+(\.\d{1,2})?$/;

/** "INR:bank:100-1000000,BRL:pix:1-5000" over the defaults; a malformed entry stops start-up. */
function channelsFrom(raw: string | undefined): DepositChannelSetting[] {
  const channels = DEFAULT_DEPOSIT_CHANNELS.map((c) => ({ ...c }));
  for (const part of (raw ?? '').split(',').filter((p) => p.trim())) {
    const [currency, rail, range] = part.trim().split(':');
    const [min, max] = (range ?? '').split('-');
    const channel = channels.find((c) => c.currency === currency?.toUpperCase() && c.rail === rail?.toLowerCase());
    if (!channel || !min || !max || !decimal.test(min) || !decimal.test(max))
      throw new Error(`DEPOSIT_LIMITS takes CURRENCY:rail:min-max of an offered rail, not "${part}"`);
    channel.min = min;
    channel.max = max;
  }
  return channels;
}

function closedFrom(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [currency, rail] = entry.split(':');
    if (
      !(DEPOSIT_CURRENCIES as readonly string[]).includes(currency ?? '') ||
      !(DEPOSIT_RAILS as readonly string[]).includes(rail ?? '')
    )
      throw new Error(`DEPOSITS_CLOSED takes CURRENCY:rail entries (INR:bank), not "${entry}"`);
  }
  return entries;
}

function accountsFrom(raw: string | undefined): Partial<Record<DepositCurrency, ReceivingAccount>> {
  if (!raw) return {};
  const parsed = JSON.parse(raw) as Record<string, Partial<ReceivingAccount>>;
  const out: Partial<Record<DepositCurrency, ReceivingAccount>> = {};
  for (const [currency, a] of Object.entries(parsed)) {
    if (!(DEPOSIT_CURRENCIES as readonly string[]).includes(currency) || !a.holderName || !a.accountNumber)
      throw new Error(`DEPOSIT_ACCOUNTS: ${currency} needs holderName and accountNumber`);
    out[currency as DepositCurrency] = {
      holderName: a.holderName,
      bankName: a.bankName ?? '',
      accountNumber: a.accountNumber,
      ifsc: a.ifsc ?? null,
      branch: a.branch ?? null,
      swift: a.swift ?? null,
      routingNumber: a.routingNumber ?? null,
      pixKey: a.pixKey ?? null,
      isSandbox: false,
    };
  }
  return out;
}

export function loadDepositSettings(env: Record<string, string | undefined>, mode: 'paper' | 'live'): DepositSettings {
  const secret = env.PIX_WEBHOOK_SECRET ?? '';
  if (mode === 'live' && secret !== '' && secret.length < 32)
    throw new Error('PIX_WEBHOOK_SECRET must be at least 32 characters');
  return {
    channels: channelsFrom(env.DEPOSIT_LIMITS),
    closed: closedFrom(env.DEPOSITS_CLOSED),
    accounts: mode === 'paper' ? SANDBOX_ACCOUNTS : accountsFrom(env.DEPOSIT_ACCOUNTS),
    pixExpiresInMin: Number(env.PIX_EXPIRES_MIN ?? 30) || 30,
    // Paper mode: a fresh secret per process, shared by the sandbox provider and the webhook check.
    // Live mode without one: every webhook is refused (and PIX stays closed without a provider).
    pixWebhookSecret: secret || (mode === 'paper' ? randomBytes(32).toString('hex') : ''),
    pixMerchantName: (env.PIX_MERCHANT_NAME ?? 'BOURSE PAPER').slice(0, 25),
    pixMerchantCity: (env.PIX_MERCHANT_CITY ?? 'SAO PAULO').slice(0, 15),
  };
}
