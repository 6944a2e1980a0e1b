// Deployment settings, read once from the environment at start-up. Everything else receives a Config;
// nothing below serve.ts reads process.env (main.ts, before it, sets NODE_COMPILE_CACHE for the
// server's threads: platform/compile-cache.ts).

import { isIP } from 'node:net';
import { type CryptoDepositSettings, loadCryptoDepositSettings } from './features/crypto-deposits/settings.ts';
import { type DepositSettings, loadDepositSettings } from './features/deposits/settings.ts';
import { type LoanSettings, loadLoanSettings } from './features/loans/settings.ts';
import type { OptionsSettings } from './features/options/service.ts';
import { loadVipSettings, type VipSettings } from './features/vip/settings.ts';
import { PAPER_GRANTS, type PaperGrant } from './features/wallet/paper-grants.ts';
import { DEFAULT_REVIEW_ABOVE, type WithdrawSettings } from './features/withdrawals/terms.ts';
import { paperSealingKey, type SealingKey, sealingKeyFromHex } from './platform/sealed-box.ts';

export type Mode = 'paper' | 'live';

export type Config = {
  mode: Mode;
  port: number;
  host: string;
  dataDir: string | null;
  databaseUrl: string | undefined;
  platformName: string;
  inviteCodeRequired: boolean;
  smsCodeRequired: boolean;
  openAutoApply: 0 | 1;
  stockCountry: 'IN' | 'US' | 'BR';
  serviceChatUrl: string;
  /**
   * VOTE_FRAME_HOSTS: hosts (with an optional port) whose pages the app may show in a frame on the
   * stock vote page (an e-voting site staff link to); the CSP's frame-src names these and nothing else.
   * An address on another host is shown as a link that opens outside. Empty: nothing is framed.
   */
  voteFrameHosts: string[];
  /** Seed of the market simulator (paper mode): the same seed gives the same market. */
  simulatorSeed: string;
  /** Paper-mode only: exposes sandbox SMS codes and the clock at /ipor-api/test/* for browser tests. */
  testHooks: boolean;
  /** With testHooks: the server's clock starts at this time (epoch ms) and can be moved forward. */
  testClockStartMs: number | null;
  /** Where the built customer app and staff console are served from; null serves no static files. */
  webDist: string | null;
  adminDist: string | null;
  logLevel: string;
  /** Journaled engine commands between snapshots (start-up replays at most about this many). */
  engineSnapshotEvery: number;
  /**
   * Who makes the snapshots: 'worker', a thread with its own copy of the engine (twice the engine's
   * memory; the writer never pauses), where the database is on disk; or 'writer', the writer itself.
   */
  engineSnapshots: 'worker' | 'writer';
  /** Minutes between reconciliation runs (the first comes shortly after start-up); 0: only on request. */
  reconcileEveryMin: number;
  /**
   * Hours journal lines behind the kept snapshots stay before they are deleted (engine-host/retention.ts);
   * null keeps the whole journal.
   */
  engineJournalRetentionHours: number | null;
  stocks: StockSettings;
  /** VIP membership: the trial, the prices per 30 days, and which features only members may use (features/vip). */
  vip: VipSettings;
  /** Loans (features/loans, decision 0039): rates, periods, KYC, the second-approval threshold, the interest job. */
  loans: LoanSettings;
  /**
   * IPO subscription (features/ipo): the offline payment window, how often its timed job runs (0: only
   * on request), whether paper mode seeds its demo IPOs (features/demo/demo-ipos.ts), and the range one
   * lot's value (lot size × top of the band, rupees) must lie in (DOMAIN.md: ₹10,000–15,000).
   */
  ipo: {
    paymentWindowHours: number;
    jobEveryMs: number;
    demo: boolean;
    lotValue: { min: string; max: string };
    /**
     * The public beacon mixed into each draw's seed (decision 0036): `drand` (quicknet through the relay
     * at IPO_DRAND_URL; live mode's default) or `sandbox` (this server produces each round; paper mode's
     * default, labelled as such on the public record).
     */
    beacon: { kind: 'sandbox' | 'drand'; drandUrl: string };
  };
  /** Options (features/options, decision 0034): minimum premium, spread, rate, VIP gate, the expiry job. */
  options: OptionsSettings;
  /** The crypto exchange's fees and minimum order value (features/spot). */
  spot: SpotSettings;
  /** Perpetual contracts' fees and the new-account leverage cap (features/perpetuals). */
  perpetuals: PerpetualSettings;
  /** Most requests per client address in each window (RATE_LIMITS; http/rate-limits.ts applies them). */
  rateLimits: RateLimits;
  /**
   * TRUST_PROXY: the reverse proxies (addresses, CIDR ranges or proxy-addr's names such as loopback)
   * whose X-Forwarded-For names the client; false: the client is the socket's address, and a header
   * anyone can write cannot move a caller to another rate-limit bucket.
   */
  trustProxy: string[] | false;
  /** The registration captcha's proof of work (features/common/captcha.ts). */
  captcha: CaptchaWork;
  /** Fiat deposit rails, limits and receiving accounts (features/deposits/settings.ts). */
  deposits: DepositSettings;
  /** Crypto deposits: xpubs, minimums, closed assets, sandbox chain timing (features/crypto-deposits). */
  cryptoDeposits: CryptoDepositSettings;
  /** Withdrawal review thresholds, closed rails and the payout job (features/withdrawals/terms.ts). */
  withdrawals: WithdrawSettings;
  /** Paper mode: the virtual funds each new customer is granted (not read from the environment). */
  paperGrants: readonly PaperGrant[];
  /**
   * Paper mode: three demo coin offerings seeded at the first start (one open, one upcoming, one finished
   * and listed). DEMO_LAUNCHPAD=0 leaves the launchpad empty (the API tests do).
   */
  demoLaunchpad: boolean;
  /**
   * Robots (features/robots): ROBOTS_DEMO=0 leaves paper mode without its demo templates (one per
   * strategy, approved by the system); ROBOTS_TICK_EVERY_MS how often the strategies are asked (0: only
   * with the market pump and the test clock).
   */
  robots: { demo: boolean; tickEveryMs: number };
  /**
   * AI funds (features/funds): AI_FUNDS_DEMO=0 leaves paper mode without its demo fund (momentum over
   * NSE, approved by the system); AI_FUNDS_JOB_EVERY_MS how often the rebalance and valuation job runs (0:
   * only with the market pump and the test clock).
   */
  aiFunds: { demo: boolean; jobEveryMs: number };
  /**
   * API_KEY_ENCRYPTION_KEY (64 hex characters): seals API key secrets at rest. Paper mode falls back to
   * a fixed derived key; live mode without it offers no API keys (api_keys_unavailable).
   */
  apiKeySealingKey: SealingKey | null;
  /** Request weight per minute on the trading API (/api/v3): per API key (signed calls), per address (all). */
  openApiLimits: { perKeyPerMin: number; publicPerIpPerMin: number };
};

/** Requests per client address per window: every API call (global) and tighter ceilings per route. */
export type RateLimits = {
  windowSec: number;
  global: number;
  signIn: number;
  register: number;
  codeSend: number;
  order: number;
};

/**
 * ALTCHA's proof of work: each try derives a PBKDF2-SHA-256 key of `cost` iterations, and the answer
 * is a try number drawn from the upper half of 1..`tries`, so a solver does about 0.75 × tries × cost.
 */
export type CaptchaWork = { cost: number; tries: number };

/** Stock-trading rules a deployment chooses (SPEC §5 leaves the values open). */
export type StockSettings = {
  /** Outside trading hours: queue the order for the next open, or refuse it. */
  afterMarket: 'queue' | 'refuse';
  /** Orders need a verified KYC (idStatus succ). */
  kycRequired: boolean;
  /** All-in charges per market in basis points of the traded amount, the same for buyer and seller. */
  feeBps: Record<'IN' | 'US' | 'BR', number>;
  minShares: number;
  maxShares: number;
  /** Per currency, decimal strings; an order's amount (price × quantity) must lie within. */
  minAmount: Record<string, string>;
  maxAmount: Record<string, string>;
  /**
   * Block trades: the stock-wallet balance per currency (decimal strings) from which a KYC-verified
   * customer counts as HNI without being marked so by staff (BLOCK_HNI_MIN_ASSETS, features/block-trades).
   */
  blockHniMinAssets: Record<string, string>;
};

/** Crypto spot trading rules a deployment chooses. */
export type SpotSettings = {
  /** Fees in basis points of the traded amount, charged in the quote coin (USDT). */
  makerFeeBps: number;
  takerFeeBps: number;
  /** Smallest price × quantity accepted, in USDT (Binance's is 5-10). */
  minNotional: string;
};

/** SPOT_FEE_BPS ("MAKER:10,TAKER:10", Binance's default) and SPOT_MIN_NOTIONAL (5 USDT). */
export function loadSpotSettings(env: Record<string, string | undefined>): SpotSettings {
  const fees = keyed(env.SPOT_FEE_BPS, { MAKER: 10, TAKER: 10 }, nonNegativeInt);
  return {
    makerFeeBps: fees.MAKER ?? 10,
    takerFeeBps: fees.TAKER ?? 10,
    minNotional: decimal(env.SPOT_MIN_NOTIONAL ?? '5'),
  };
}

/** Perpetual contracts' rules a deployment chooses. */
export type PerpetualSettings = {
  /** Fees in basis points of the notional, in USDT (Binance USDⓈ-M's regular 0.02% / 0.05%). */
  makerFeeBps: number;
  takerFeeBps: number;
  /** The most leverage an account younger than NEW_ACCOUNT_DAYS may choose (DOMAIN.md: commonly 20x). */
  newAccountMaxLeverage: number;
  /** USDT moved once from platform:liquidity into the insurance fund at the first start (0: none). */
  insuranceSeed: string;
};

/** PERP_FEE_BPS ("MAKER:2,TAKER:5"), PERP_NEW_ACCOUNT_MAX_LEVERAGE (20), PERP_INSURANCE_SEED (1,000,000 USDT). */
export function loadPerpetualSettings(env: Record<string, string | undefined>): PerpetualSettings {
  const fees = keyed(env.PERP_FEE_BPS, { MAKER: 2, TAKER: 5 }, nonNegativeInt);
  const cap = positiveInteger('PERP_NEW_ACCOUNT_MAX_LEVERAGE', env.PERP_NEW_ACCOUNT_MAX_LEVERAGE, 20);
  if (cap > 125) throw new Error('PERP_NEW_ACCOUNT_MAX_LEVERAGE must be from 1 to 125');
  return {
    makerFeeBps: fees.MAKER ?? 2,
    takerFeeBps: fees.TAKER ?? 5,
    newAccountMaxLeverage: cap,
    insuranceSeed: decimal(env.PERP_INSURANCE_SEED ?? '1000000'),
  };
}

/** "IN:12,US:1" → { IN: 12, US: 1 } over the defaults; a malformed entry stops start-up. */
function keyed<T extends string | number>(
  raw: string | undefined,
  defaults: Record<string, T>,
  parse: (v: string) => T,
): Record<string, T> {
  const out = { ...defaults };
  for (const part of (raw ?? '').split(',').filter((p) => p.trim())) {
    const [key, value] = part.split(':').map((p) => p.trim());
    if (!key || value === undefined || value === '') throw new Error(`bad setting entry "${part}"`);
    out[key.toUpperCase()] = parse(value);
  }
  return out;
}

const nonNegativeInt = (v: string) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a whole number: ${v}`);
  return n;
};
const decimal = (v: string) => {
  if (!/^\d+(\.\d+)?$/.test(v)) throw new Error(`not a decimal amount: ${v}`);
  return v;
};

export function loadStockSettings(env: Record<string, string | undefined>): StockSettings {
  const feeBps = keyed(env.STOCK_FEE_BPS, { IN: 12, US: 1, BR: 3 }, nonNegativeInt) as StockSettings['feeBps'];
  return {
    afterMarket: env.STOCK_AFTER_MARKET === 'refuse' ? 'refuse' : 'queue',
    kycRequired: flag(env.STOCK_KYC_REQUIRED, false),
    feeBps,
    minShares: nonNegativeInt(env.STOCK_MIN_SHARES ?? '1'),
    maxShares: nonNegativeInt(env.STOCK_MAX_SHARES ?? '100000'),
    minAmount: keyed(env.STOCK_MIN_AMOUNT, { INR: '1.00', USD: '1.00', BRL: '1.00' }, decimal),
    maxAmount: keyed(env.STOCK_MAX_AMOUNT, { INR: '10000000.00', USD: '200000.00', BRL: '1000000.00' }, decimal),
    blockHniMinAssets: keyed(
      env.BLOCK_HNI_MIN_ASSETS,
      { INR: '500000.00', USD: '50000.00', BRL: '250000.00' },
      decimal,
    ),
  };
}

const flag = (value: string | undefined, fallback: boolean) =>
  value === undefined || value === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

/** The value if it is one of `allowed` (unset: the first), else start-up stops. */
function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T {
  if (raw === undefined || raw === '') return allowed[0] as T;
  const value = raw.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(value))
    throw new Error(`${name} must be ${allowed.join(' or ')}, not "${raw}"`);
  return value as T;
}

/** The risk-free rate by market when OPTIONS_RATE_PCT is not set: about each central bank's late-2025 policy rate. */
const OPTION_RATE_PCT = { IN: 5.5, US: 4, BR: 15 } as const;

export function loadOptionsSettings(
  env: Record<string, string | undefined>,
  country: 'IN' | 'US' | 'BR',
): OptionsSettings {
  const pct = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || value > 100)
      throw new Error(`${name} must be a percentage from 0 to 100`);
    return value;
  };
  const min = env.OPTIONS_MIN_PURCHASE?.trim() || '100.00';
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(min)) throw new Error('OPTIONS_MIN_PURCHASE must be an amount like 100.00');
  return {
    minPurchaseAmount: min,
    spreadPct: pct('OPTIONS_SPREAD_PCT', 4),
    ratePct: pct('OPTIONS_RATE_PCT', OPTION_RATE_PCT[country]),
    vipOnly: flag(env.OPTIONS_VIP_ONLY, false),
    jobEveryMs: positiveInteger('OPTIONS_JOB_EVERY_MS', env.OPTIONS_JOB_EVERY_MS, 30_000),
    weeks: 4,
    months: 3,
    strikesEachSide: 6,
  };
}

function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, not "${raw}"`);
  return value;
}

/** A week: longer than any sensible interval, and well within what a timer can wait. */
const RECONCILE_EVERY_MIN_MAX = 10_080;

function reconcileEvery(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 60;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0 || value > RECONCILE_EVERY_MIN_MAX)
    throw new Error(
      `RECONCILE_EVERY_MIN must be a whole number of minutes from 0 to ${RECONCILE_EVERY_MIN_MAX}, not "${raw}"`,
    );
  return value;
}

const RATE_LIMIT_KEYS: Readonly<Record<string, keyof RateLimits>> = {
  WINDOW_SEC: 'windowSec',
  GLOBAL: 'global',
  SIGN_IN: 'signIn',
  REGISTER: 'register',
  CODE_SEND: 'codeSend',
  ORDER: 'order',
};
export const DEFAULT_RATE_LIMITS: RateLimits = {
  windowSec: 60,
  global: 600,
  signIn: 10,
  register: 5,
  codeSend: 5,
  order: 120,
};

/** "REGISTER:20,WINDOW_SEC:30" over the defaults; an unknown key or a count below 1 stops start-up. */
export function loadRateLimits(raw: string | undefined): RateLimits {
  const given = keyed(raw, {}, (v) => positiveInteger('RATE_LIMITS', v, 0));
  const out = { ...DEFAULT_RATE_LIMITS };
  for (const [key, value] of Object.entries(given)) {
    const name = RATE_LIMIT_KEYS[key];
    if (!name) throw new Error(`RATE_LIMITS knows ${Object.keys(RATE_LIMIT_KEYS).join(', ')}, not "${key}"`);
    out[name] = value;
  }
  return out;
}

/** VOTE_FRAME_HOSTS: comma-separated host names (lower case, an optional :port); anything else stops start-up. */
export function loadFrameHosts(raw: string | undefined): string[] {
  const hosts = (raw ?? '')
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  for (const host of hosts)
    if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/.test(host))
      throw new Error(`VOTE_FRAME_HOSTS takes host names like evoting.example.com, not "${host}"`);
  return [...new Set(hosts)];
}

/** TRUST_PROXY: comma-separated addresses, CIDR ranges or proxy-addr's names; unset or empty: none. */
export function loadTrustProxy(raw: string | undefined): string[] | false {
  const entries = (raw ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (entries.length === 0) return false;
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    // "true" or a hop count would trust whatever the client writes: the proxy must be named.
    if (!named && (extra !== undefined || !isIP(address ?? '') || (bits !== undefined && !/^\d{1,3}$/.test(bits))))
      throw new Error(`TRUST_PROXY takes proxy addresses or CIDR ranges, not "${entry}"`);
  }
  return entries;
}

export function loadCaptchaWork(env: Record<string, string | undefined>, mode: Mode): CaptchaWork {
  // Paper mode solves in a blink (browser tests solve the real thing); live mode costs a bot about a second.
  const defaults = mode === 'live' ? { cost: 1_000, tries: 4_000 } : { cost: 50, tries: 200 };
  return {
    cost: positiveInteger('CAPTCHA_COST', env.CAPTCHA_COST, defaults.cost),
    tries: Math.max(2, positiveInteger('CAPTCHA_TRIES', env.CAPTCHA_TRIES, defaults.tries)),
  };
}

export function loadConfig(env: Record<string, string | undefined>, defaults: Partial<Config> = {}): Config {
  const mode: Mode = env.MODE === 'live' ? 'live' : 'paper';
  const testHooks = flag(env.BOURSE_TEST_HOOKS, false);
  if (testHooks && mode === 'live') throw new Error('BOURSE_TEST_HOOKS cannot be enabled in live mode');
  const country = (env.STOCK_COUNTRY ?? 'IN').toUpperCase();
  return {
    mode,
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir: env.DATA_DIR ?? defaults.dataDir ?? '.data',
    databaseUrl: env.DATABASE_URL || undefined,
    platformName: env.PLATFORM_NAME ?? 'Bourse',
    inviteCodeRequired: flag(env.INVITE_CODE_REQUIRED, false),
    smsCodeRequired: flag(env.SMS_CODE_REQUIRED, false),
    openAutoApply: env.OPEN_AUTO_APPLY === '1' ? 1 : 0,
    stockCountry: country === 'US' || country === 'BR' ? country : 'IN',
    serviceChatUrl: env.SERVICE_CHAT_URL ?? '',
    voteFrameHosts: loadFrameHosts(env.VOTE_FRAME_HOSTS),
    simulatorSeed: env.SIMULATOR_SEED ?? 'bourse',
    testHooks,
    testClockStartMs: testHooks && env.BOURSE_TEST_CLOCK ? Date.parse(env.BOURSE_TEST_CLOCK) : null,
    webDist: defaults.webDist ?? null,
    adminDist: defaults.adminDist ?? null,
    logLevel: env.LOG_LEVEL ?? 'info',
    engineSnapshotEvery: positiveInteger('ENGINE_SNAPSHOT_EVERY', env.ENGINE_SNAPSHOT_EVERY, 100_000),
    engineSnapshots: oneOf('ENGINE_SNAPSHOTS', env.ENGINE_SNAPSHOTS, ['worker', 'writer'] as const),
    reconcileEveryMin: reconcileEvery(env.RECONCILE_EVERY_MIN),
    engineJournalRetentionHours:
      env.ENGINE_JOURNAL_RETENTION_HOURS?.trim().toLowerCase() === 'all'
        ? null
        : positiveInteger('ENGINE_JOURNAL_RETENTION_HOURS', env.ENGINE_JOURNAL_RETENTION_HOURS, 168),
    stocks: defaults.stocks ?? loadStockSettings(env),
    vip: defaults.vip ?? loadVipSettings(env),
    loans: defaults.loans ?? loadLoanSettings(env),
    ipo: {
      paymentWindowHours: positiveInteger('IPO_PAYMENT_WINDOW_HOURS', env.IPO_PAYMENT_WINDOW_HOURS, 24),
      jobEveryMs: positiveInteger('IPO_JOB_EVERY_MS', env.IPO_JOB_EVERY_MS, 10_000),
      demo: mode === 'paper' && flag(env.IPO_DEMO, true),
      lotValue: { min: '10000.00', max: '15000.00' },
      beacon: {
        kind: oneOf(
          'IPO_BEACON',
          env.IPO_BEACON,
          mode === 'live' ? (['drand', 'sandbox'] as const) : (['sandbox', 'drand'] as const),
        ),
        drandUrl: env.IPO_DRAND_URL?.trim() || 'https://api.drand.sh',
      },
    },
    options: defaults.options ?? loadOptionsSettings(env, country === 'US' || country === 'BR' ? country : 'IN'),
    spot: defaults.spot ?? loadSpotSettings(env),
    perpetuals: defaults.perpetuals ?? loadPerpetualSettings(env),
    rateLimits: loadRateLimits(env.RATE_LIMITS),
    trustProxy: loadTrustProxy(env.TRUST_PROXY),
    captcha: loadCaptchaWork(env, mode),
    deposits: defaults.deposits ?? loadDepositSettings(env, mode),
    cryptoDeposits: defaults.cryptoDeposits ?? loadCryptoDepositSettings(env, mode),
    withdrawals: defaults.withdrawals ?? loadWithdrawSettings(env, testHooks),
    paperGrants: defaults.paperGrants ?? PAPER_GRANTS,
    demoLaunchpad: flag(env.DEMO_LAUNCHPAD, true),
    robots: {
      demo: mode === 'paper' && flag(env.ROBOTS_DEMO, true),
      tickEveryMs: positiveInteger('ROBOTS_TICK_EVERY_MS', env.ROBOTS_TICK_EVERY_MS, 5_000),
    },
    aiFunds: {
      demo: mode === 'paper' && flag(env.AI_FUNDS_DEMO, true),
      jobEveryMs: positiveInteger('AI_FUNDS_JOB_EVERY_MS', env.AI_FUNDS_JOB_EVERY_MS, 60_000),
    },
    apiKeySealingKey: env.API_KEY_ENCRYPTION_KEY
      ? sealingKeyFromHex(env.API_KEY_ENCRYPTION_KEY)
      : mode === 'paper'
        ? paperSealingKey()
        : null,
    openApiLimits: {
      perKeyPerMin: positiveInteger('OPEN_API_KEY_PER_MIN', env.OPEN_API_KEY_PER_MIN, 1_200),
      publicPerIpPerMin: positiveInteger('OPEN_API_PUBLIC_PER_MIN', env.OPEN_API_PUBLIC_PER_MIN, 2_400),
    },
  };
}

/**
 * WITHDRAW_REVIEW_ABOVE ("INR:50000,BTC:0.1": above it finance staff review), WITHDRAWALS_CLOSED
 * ("pix,crypto:BTC" or "all"), WITHDRAW_PAYOUT_EVERY_MS (the payout job, 2000 by default), and with test
 * hooks only BOURSE_TEST_PAYOUT_PAUSE (after_accept | after_post: the crash test's pause points).
 */
export function loadWithdrawSettings(env: Record<string, string | undefined>, testHooks: boolean): WithdrawSettings {
  const pause = env.BOURSE_TEST_PAYOUT_PAUSE;
  return {
    reviewAbove: keyed(env.WITHDRAW_REVIEW_ABOVE, { ...DEFAULT_REVIEW_ABOVE }, decimal),
    closed: (env.WITHDRAWALS_CLOSED ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    payoutEveryMs: nonNegativeInt(env.WITHDRAW_PAYOUT_EVERY_MS ?? '2000'),
    pauseAt: testHooks && (pause === 'after_accept' || pause === 'after_post') ? pause : null,
  };
}
