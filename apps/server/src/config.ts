// Deployment settings, read once from the environment at start-up. Everything else receives a Config;
// nothing below main.ts reads process.env.

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
  /** Seed of the market simulator (paper mode): the same seed gives the same market. */
  simulatorSeed: string;
  /** Paper-mode only: exposes captcha answers and SMS codes at /ipor-api/test/* for browser tests. */
  testHooks: boolean;
  /** Where the built customer app and staff console are served from; null serves no static files. */
  webDist: string | null;
  adminDist: string | null;
  logLevel: string;
};

const flag = (value: string | undefined, fallback: boolean) =>
  value === undefined || value === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

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
    simulatorSeed: env.SIMULATOR_SEED ?? 'bourse',
    testHooks,
    webDist: defaults.webDist ?? null,
    adminDist: defaults.adminDist ?? null,
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
