// Builds the HTTP application: Fastify with the SPEC §7–8 conventions under /ipor-api (form and JSON
// bodies, token and lang headers, the {code, msg, data} envelope), the OpenAPI document generated from
// the same zod schemas, security headers, request ids, and the two front ends as static files.

import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '@bourse/db';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { DrandQuicknetBeacon } from './adapters/beacon/drand/drand-beacon.ts';
import { SandboxBeacon } from './adapters/beacon/sandbox/sandbox-beacon.ts';
import type { ChainPort } from './adapters/chain/chain-port.ts';
import { EsploraBtcChain } from './adapters/chain/esplora/esplora-btc.ts';
import { EvmRpcChain } from './adapters/chain/evm-rpc/evm-rpc-chain.ts';
import { SandboxChain } from './adapters/chain/sandbox/sandbox-chain.ts';
import { SandboxChainPayouts } from './adapters/chain/sandbox/sandbox-chain-payouts.ts';
import { PIX_SIGNATURE_HEADER } from './adapters/payments/pix-port.ts';
import { SandboxBankPayouts } from './adapters/payments/sandbox/sandbox-bank-payouts.ts';
import { sandboxPayouts } from './adapters/payments/sandbox/sandbox-payout-ledger.ts';
import { SandboxPix } from './adapters/payments/sandbox/sandbox-pix.ts';
import { SandboxSms } from './adapters/sms/sandbox/sandbox.ts';
import type { SmsPort } from './adapters/sms/sms-port.ts';
import { PaperVenue } from './adapters/venue/paper/paper-venue.ts';
import type { Config } from './config.ts';
import { Retention } from './engine-host/retention.ts';
import { TradingEngine } from './engine-host/trading-engine.ts';
import { accountRoutes } from './features/accounts/routes.ts';
import { Accounts } from './features/accounts/service.ts';
import { SessionCache } from './features/accounts/session-cache.ts';
import { adjustmentRoutes } from './features/adjustments/routes.ts';
import { Adjustments } from './features/adjustments/service.ts';
import { apiKeyRoutes } from './features/api-keys/routes.ts';
import { ApiKeys } from './features/api-keys/service.ts';
import { bankAccountRoutes } from './features/bank-accounts/routes.ts';
import { BankAccounts } from './features/bank-accounts/service.ts';
import { blockTradeRoutes } from './features/block-trades/routes.ts';
import { BlockTrades } from './features/block-trades/service.ts';
import { seedDemoLaunchpad } from './features/coin-offerings/demo.ts';
import { coinOfferingRoutes } from './features/coin-offerings/routes.ts';
import { CoinOfferings } from './features/coin-offerings/service.ts';
import { Captchas } from './features/common/captcha.ts';
import { commonRoutes } from './features/common/routes.ts';
import { testClockRoutes } from './features/common/test-clock.ts';
import { contentRoutes } from './features/content/routes.ts';
import { Content } from './features/content/service.ts';
import { cryptoDepositRoutes } from './features/crypto-deposits/routes.ts';
import { CryptoDeposits } from './features/crypto-deposits/service.ts';
import { DepositWatcher } from './features/crypto-deposits/watcher.ts';
import { seed } from './features/demo/seed.ts';
import { depositRoutes } from './features/deposits/routes.ts';
import { Deposits } from './features/deposits/service.ts';
import { exchangeRoutes } from './features/exchange/routes.ts';
import { Exchange } from './features/exchange/service.ts';
import { fundRoutes } from './features/funds/routes.ts';
import { Funds } from './features/funds/service.ts';
import { ipoRoutes } from './features/ipo/routes.ts';
import { Ipos } from './features/ipo/service.ts';
import { kycRoutes } from './features/kyc/routes.ts';
import { Kyc } from './features/kyc/service.ts';
import { listingRoutes } from './features/listings/routes.ts';
import { Listings, reapplyListings } from './features/listings/service.ts';
import { loanRoutes } from './features/loans/routes.ts';
import { Loans } from './features/loans/service.ts';
import { bookView, marketDataRoutes } from './features/markets/routes.ts';
import { MarketData } from './features/markets/service.ts';
import { marketStream } from './features/markets/stream.ts';
import { openApiRoutes } from './features/open-api/routes.ts';
import { spotPortOf } from './features/open-api/spot-port.ts';
import { optionRoutes } from './features/options/routes.ts';
import { Options } from './features/options/service.ts';
import { PerpetualsDesk } from './features/perpetuals/console-desk.ts';
import { perpetualsConsoleRoutes } from './features/perpetuals/console-routes.ts';
import { perpContracts } from './features/perpetuals/contracts.ts';
import { PerpDesk } from './features/perpetuals/desk.ts';
import { positionHistoryProjector } from './features/perpetuals/position-history.ts';
import { projectPerpRecords } from './features/perpetuals/records.ts';
import { perpetualConsoleRoutes, perpetualRoutes } from './features/perpetuals/routes.ts';
import { Perpetuals } from './features/perpetuals/service.ts';
import { reconciliationRoutes } from './features/reconciliation/routes.ts';
import { Reconciliation } from './features/reconciliation/service.ts';
import { robotRoutes } from './features/robots/routes.ts';
import { Robots } from './features/robots/service.ts';
import { LiquidityBot } from './features/spot/liquidity-bot.ts';
import { spotConsoleRoutes, spotRoutes } from './features/spot/routes.ts';
import { SpotExchange } from './features/spot/service.ts';
import { staffRoutes } from './features/staff/routes.ts';
import { Staff } from './features/staff/service.ts';
import { accountChannels } from './features/stocks/account-changes.ts';
import { Holdings } from './features/stocks/holdings.ts';
import { stockRoutes } from './features/stocks/routes.ts';
import { StockOrders } from './features/stocks/service.ts';
import { Watchlist } from './features/stocks/watchlist.ts';
import { supportChatRoutes } from './features/support-chat/routes.ts';
import { SupportChat } from './features/support-chat/service.ts';
import { vipRoutes } from './features/vip/routes.ts';
import { Vip } from './features/vip/service.ts';
import { voteRoutes } from './features/votes/routes.ts';
import { Votes } from './features/votes/service.ts';
import { CoinWallets } from './features/wallet/coin-wallets.ts';
import { grantPaperFunds } from './features/wallet/paper-grants.ts';
import { coinWalletRoutes, statementRoutes, walletRoutes } from './features/wallet/routes.ts';
import { Wallets } from './features/wallet/service.ts';
import { MARKET_TIME_ZONES, Statements } from './features/wallet/statement.ts';
import { AddressBook } from './features/withdrawals/address-book.ts';
import { type PayoutRails, unconfiguredRail } from './features/withdrawals/payout-rail.ts';
import { Payouts } from './features/withdrawals/payouts.ts';
import { withdrawalRoutes } from './features/withdrawals/routes.ts';
import { Withdrawals } from './features/withdrawals/service.ts';
import { WithdrawTerms } from './features/withdrawals/terms.ts';
import { AppError } from './http/app-error.ts';
import { errorEnvelope, registerEnvelope, requestLang } from './http/envelope.ts';
import { registerRateLimits } from './http/rate-limits.ts';
import { apiSecurityHeaders, securityHeaders } from './http/security-headers.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import type { NetworkCode } from './platform/crypto-networks.ts';

export const API_PREFIX = '/ipor-api';

export type AppDeps = {
  config: Config;
  db: Db;
  clock?: Clock;
  sms?: SmsPort;
  logger?: boolean;
  /** Advance the market every this many ms (0: only by hand, as tests do). */
  marketPumpMs?: number;
};

export type App = {
  http: FastifyInstance;
  accounts: Accounts;
  staff: Staff;
  engine: TradingEngine;
  reconciliation: Reconciliation;
  /** Prunes expired idempotency keys and compacts the journal (engine-host/retention.ts). */
  retention: Retention;
  market: MarketData;
  venue: PaperVenue;
  /** Runtime listing: a new stock after its IPO, a new coin after its offering (features/listings). */
  listings: Listings;
  /** The launchpad: coin offerings, commitments and the allotment at the close. */
  coinOfferings: CoinOfferings;
  /** The crypto exchange: its liquidity bot (synced with the market like the venue) and its orders. */
  spot: { bot: LiquidityBot; exchange: SpotExchange };
  /**
   * Perpetual contracts: the desk (mark, risk loop, funding, liquidity account; synced with the market)
   * and the customer service, which also answers the console's insuranceFund(), deskView() (open interest)
   * and liquidations(null, …) (every liquidation and ADL record).
   */
  perpetuals: Perpetuals;
  sandboxSms: SandboxSms | null;
  clock: Clock;
  /** Crypto deposits' watcher (scan() on demand) and, in paper mode, the sandbox chain. */
  cryptoDeposits: { watcher: DepositWatcher; sandboxChain: SandboxChain | null };
  withdrawals: Withdrawals;
  /** The payout outbox's worker (tests run it by hand with WITHDRAW_PAYOUT_EVERY_MS 0). */
  payouts: Payouts;
  /** IPO subscription: tests run its timed job by hand (tick()) with ipo.jobEveryMs 0. */
  ipos: Ipos;
  /** Block trades: run() allots closed offers and unlocks settled allotments (with the market pump). */
  blockTrades: BlockTrades;
  /** Robots: tests run the strategies' job by hand (tick()) with robots.tickEveryMs 0. */
  robots: Robots;
  /** AI funds: tests run the rebalance and valuation job by hand (tick()) with aiFunds.jobEveryMs 0. */
  funds: Funds;
  /** VIP membership and the one entitlement check other lines ask (features/vip). */
  vip: Vip;
  /** Options: tests run its expiry job by hand (tick()) with options.jobEveryMs 0. */
  options: Options;
  /** Loans and the credit score: tests run the interest job by hand (accrue()) with loans.accrueEveryMs 0. */
  loans: Loans;
};

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const sandboxSms = deps.sms ? null : new SandboxSms();
  const sms = deps.sms ?? sandboxSms!;

  const http = Fastify({
    logger: deps.logger === false ? false : { level: config.logLevel },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    // Off unless TRUST_PROXY names the proxy: X-Forwarded-For from anyone else would pick the client's
    // address (and rate-limit bucket) for them.
    trustProxy: config.trustProxy,
    // One log line per request (in onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1_048_576,
    routerOptions: { ignoreTrailingSlash: true },
  });
  http.setValidatorCompiler(validatorCompiler);
  http.setSerializerCompiler(serializerCompiler);
  // The request line is built only when it will be written (LOG_LEVEL warn and above skip it).
  const logRequests = deps.logger !== false && ['trace', 'debug', 'info'].includes(config.logLevel);
  http.addHook('onResponse', (request, reply, done) => {
    if (logRequests)
      request.log.info(
        { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    done();
  });

  // Security headers: built once (helmet's rules), set on every response as the request arrives; the
  // API's JSON answers get the short set that applies to them (apiSecurityHeaders).
  const chatWidget = config.serviceChatUrl ? [new URL(config.serviceChatUrl).origin] : [];
  const frameHosts = [...config.voteFrameHosts.map((h) => `https://${h}`), ...chatWidget];
  const security = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'", ...chatWidget],
        connectSrc: ["'self'", 'ws:', 'wss:', ...chatWidget],
        // Only the e-voting hosts the deployment allows (VOTE_FRAME_HOSTS) and the external chat widget's
        // origin (SERVICE_CHAT_URL, whose script opens its window in a frame) may be framed; none by default.
        frameSrc: frameHosts.length ? frameHosts : ["'none'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  const apiSecurity = apiSecurityHeaders(security);
  http.addHook('onRequest', (request, reply, done) => {
    const api = request.url.startsWith(API_PREFIX) || request.url.startsWith('/api/');
    reply.headers(api ? apiSecurity : security);
    reply.header('x-request-id', request.id);
    done();
  });
  await http.register(websocket, { options: { maxPayload: 65_536 } });
  await http.register(swagger, {
    openapi: {
      info: { title: 'Bourse API', version: '0.1.0', description: 'SPEC §7 calls. Every answer is {code, msg, data}.' },
      servers: [{ url: API_PREFIX }],
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } } },
    },
    transform: jsonSchemaTransform,
  });

  const captchas = new Captchas(db, clock, config.captcha);
  const engine = await TradingEngine.open(db, clock, {
    snapshotEvery: config.engineSnapshotEvery,
    snapshotWorker: config.engineSnapshots === 'worker',
    alsoProject: [projectPerpRecords, positionHistoryProjector(new Set(perpContracts().map((c) => c.id)))],
  });
  http.log.info(
    { engineStartup: engine.startup, snapshotsBy: engine.snapshotsOffWriter ? 'worker' : 'writer' },
    'engine state loaded',
  );
  const retention = new Retention({
    db,
    clock,
    journalRetentionMs:
      config.engineJournalRetentionHours === null ? null : config.engineJournalRetentionHours * 3_600_000,
    log: http.log,
  });
  // A run in progress deletes through the database: closing waits for it.
  http.addHook('onClose', () => retention.stop());
  http.addHook('onClose', () => engine.close());
  const onUserCreated =
    config.mode === 'paper' ? (userId: number) => grantPaperFunds(engine, userId, config.paperGrants) : undefined;
  const sessions = new SessionCache();
  const accounts = new Accounts({
    db,
    clock,
    config,
    captchas,
    sms,
    sessions,
    ...(onUserCreated ? { onUserCreated } : {}),
  });
  const adjustments = new Adjustments({ db, engine, clock });
  const vip = new Vip({ db, engine, clock, settings: config.vip, stockCountry: config.stockCountry });
  const loans = new Loans({ db, engine, clock, settings: config.loans, stockCountry: config.stockCountry });
  const supportChat = new SupportChat({ db, clock });
  // What a line's source says about it: an adjustment's reason, a VIP payment's period, a loan's number.
  const lineNotes = async (userId: number, links: readonly string[]) =>
    new Map([
      ...(await adjustments.notes(userId, links)),
      ...(await vip.notes(userId, links)),
      ...(await loans.notes(userId, links)),
    ]);
  const wallets = new Wallets(db, engine, lineNotes);
  // Instruments listed at run time (a stock after its IPO, a coin after its offering) rejoin the catalogue
  // before the market opens, so the simulator, the venue and the liquidity bot pick them up.
  await reapplyListings(db, engine);
  const market = await MarketData.open(db, clock, config.simulatorSeed);
  const venue = await PaperVenue.open(db, engine, market, clock, config.stocks, (m) => http.log.warn(m));
  const stockOrders = new StockOrders({ db, engine, market, venue, clock, settings: config.stocks });
  const holdings = new Holdings(db, engine, market, venue.stocks);
  const blockTrades = new BlockTrades({ db, engine, market, clock, settings: config.stocks, vip });
  const spotBot = await LiquidityBot.open(db, engine, market, clock, config.spot, (m) => http.log.warn(m));
  const listings = new Listings({
    db,
    engine,
    market,
    venue,
    bot: spotBot,
    clock,
    settings: { stocks: config.stocks, spot: config.spot },
  });
  const coinOfferings = new CoinOfferings({ db, engine, clock, accounts, listings });
  const watchlist = new Watchlist(db);
  const spot = new SpotExchange({
    db,
    engine,
    market,
    bot: spotBot,
    clock,
    settings: config.spot,
    accounts,
    watchlist,
  });
  // Robots (features/robots): runs trade the spot books or the paper venue through their own sub-accounts.
  const robots = new Robots({
    db,
    engine,
    market,
    bot: spotBot,
    venue,
    clock,
    minNotional: config.spot.minNotional,
    stockMinAmount: config.stocks.minAmount,
    randomSeed: () => randomBytes(4).readUInt32BE(0),
    log: (m) => http.log.error(m),
  });
  // AI funds (features/funds): model portfolios trading the paper venue's books through their own accounts.
  const funds = new Funds({ db, engine, market, venue, clock, log: (m) => http.log.error(m) });
  const perpDesk = await PerpDesk.open(db, engine, market, clock, config.perpetuals, (m) => http.log.warn(m));
  const perpetuals = new Perpetuals({ db, engine, desk: perpDesk, clock, settings: config.perpetuals, accounts });
  // Someone looks at a book: the stock venue, the crypto bot or the perpetuals' desk (each ignores the
  // others') keeps it fresh.
  const watchBook = (id: string) => {
    venue.watch(id);
    spotBot.watch(id);
    perpDesk.watch(id);
  };
  const pumpMs = deps.marketPumpMs ?? 0;
  if (pumpMs > 0) {
    let pumping = false;
    const timer = setInterval(() => {
      if (pumping) return;
      pumping = true;
      market
        .pump()
        .then(() => venue.sync())
        .then(() => spotBot.sync())
        .then(() => perpDesk.sync())
        .then(() => blockTrades.run())
        .then(() => coinOfferings.settleDue())
        .catch((error) => http.log.error({ err: error }, 'market pump failed'))
        .finally(() => {
          pumping = false;
        });
    }, pumpMs);
    http.addHook('onClose', async () => {
      clearInterval(timer);
      await market.save();
    });
  }
  const staff = new Staff({ db, clock, issuer: config.platformName, sessions });
  const content = new Content({ db, clock });
  const reconciliation = new Reconciliation({ db, engine, clock, log: http.log, everyMin: config.reconcileEveryMin });
  // A run in progress reads the engine and the database: closing waits for it.
  http.addHook('onClose', () => reconciliation.stop());
  // Fiat deposits. Paper mode: the sandbox PIX provider, which pays through the real signed webhook.
  // Live mode: no PIX provider is wired yet (the BCB adapter's shape is ready), so PIX stays closed.
  const sandboxPix = config.mode === 'paper' ? new SandboxPix(config.deposits.pixWebhookSecret) : null;
  const deposits = new Deposits({
    db,
    engine,
    clock,
    settings: config.deposits,
    pix: sandboxPix,
    simulatePayment: sandboxPix ? (txid, amount) => sandboxPix.pay(txid, amount, clock.now()) : null,
    log: (m) => http.log.warn(m),
  });
  sandboxPix?.connect(async (rawBody, signature) => {
    const res = await http.inject({
      method: 'POST',
      url: `${API_PREFIX}/webhooks/pix/${sandboxPix.name}`,
      headers: { 'content-type': 'application/json', [PIX_SIGNATURE_HEADER]: signature },
      payload: rawBody,
    });
    if (res.statusCode !== 200) throw new Error(`sandbox PIX notification refused: ${res.statusCode} ${res.body}`);
  });
  const { ports: chainPorts, sandbox: sandboxChain } = chainPortsFor(config, db, clock);
  const cryptoWatcher = new DepositWatcher({
    db,
    clock,
    engine,
    ports: chainPorts,
    settings: config.cryptoDeposits,
    log: (message, error) => http.log.error({ err: error }, message),
  });
  // A scan in progress writes through the engine and the database: closing waits for it.
  http.addHook('onClose', () => cryptoWatcher.stop());
  const cryptoDeposits = new CryptoDeposits({
    db,
    clock,
    mode: config.mode,
    settings: config.cryptoDeposits,
    watcher: cryptoWatcher,
    sandbox: sandboxChain,
    hasChain: (network, asset) => chainPorts.get(network)?.assets.includes(asset) ?? false,
  });
  // Withdrawals: paper mode pays through the sandbox rails (live mode has no provider adapters yet, so
  // nothing is paid there: the outbox keeps every approved payout until one is wired).
  const withdrawTerms = new WithdrawTerms(config.withdrawals);
  const withdrawals = new Withdrawals({ db, engine, clock, accounts, terms: withdrawTerms, mode: config.mode });
  const payoutRails: PayoutRails =
    config.mode === 'paper'
      ? {
          bank: new SandboxBankPayouts(db, clock, 'bank'),
          pix: new SandboxBankPayouts(db, clock, 'pix'),
          crypto: new SandboxChainPayouts(db, clock),
        }
      : { bank: unconfiguredRail('bank'), pix: unconfiguredRail('pix'), crypto: unconfiguredRail('crypto') };
  const payouts = new Payouts({
    db,
    engine,
    clock,
    rails: payoutRails,
    terms: withdrawTerms,
    withdrawals,
    settings: config.withdrawals,
    onPause: (point) => {
      // The crash test's signal that the payout stands at `point` (it kills the process then).
      if (config.dataDir) writeFileSync(join(config.dataDir, 'payout-paused'), point);
    },
    log: (m) => http.log.error(m),
  });
  withdrawals.onApproved = () => payouts.kick();
  const apiKeys = new ApiKeys({
    db,
    clock,
    sealingKey: config.apiKeySealingKey,
    checkPin: (user, pin) => accounts.checkPin(user, 'trade', pin),
  });
  http.addHook('onClose', () => payouts.stop());
  // IPO subscription (features/ipo): its timed job opens, closes and draws, lists and forfeits.
  const ipos = new Ipos({
    db,
    engine,
    clock,
    settings: {
      kycRequired: config.stocks.kycRequired,
      openAutoApply: config.openAutoApply,
      paymentWindowHours: config.ipo.paymentWindowHours,
      lotValue: config.ipo.lotValue,
    },
    randomSeed: () => randomBytes(32),
    beacon:
      config.ipo.beacon.kind === 'drand'
        ? new DrandQuicknetBeacon(config.ipo.beacon.drandUrl, fetch)
        : new SandboxBeacon({ db, clock, random: () => randomBytes(32) }),
    isListedStock: (exchange, symbol) => market.instrument(`${exchange}:${symbol}`) !== undefined,
    listStock: (stock, source) => listings.listStock(stock, source),
    log: (m) => http.log.error(m),
  });
  // Options (features/options): quotes from the market, money through the engine, the expiry job.
  const options = new Options({
    db,
    engine,
    market,
    clock,
    country: config.stockCountry,
    // Members-only when OPTIONS_VIP_ONLY is on or VIP_REQUIRED_FOR lists options (SPEC §6); the one
    // entitlement check (features/vip) says who is a member.
    settings: { ...config.options, vipOnly: config.options.vipOnly || config.vip.requiredFor.has('options') },
    isVip: async (userId) => (await vip.entitlement(userId, 'options')).member,
    log: (m) => http.log.error(m),
  });

  await http.register(
    async (api) => {
      await api.register(formbody);
      // Every call takes a form or JSON (SPEC §7): a text/plain body is refused as such
      // (unsupported_media_type), not handed to the schemas as one string.
      api.removeContentTypeParser('text/plain');
      registerEnvelope(api);
      await registerRateLimits(api, config.rateLimits);
      commonRoutes(api, { config, captchas, sandboxSms: config.testHooks ? sandboxSms : null });
      accountRoutes(api, accounts);
      bankAccountRoutes(api, accounts, new BankAccounts({ db, clock }));
      staffRoutes(api, staff, config);
      reconciliationRoutes(api, { reconciliation, staff });
      walletRoutes(api, accounts, wallets);
      coinWalletRoutes(api, accounts, new CoinWallets({ engine, market, virtual: config.mode === 'paper' }));
      marketDataRoutes(api, market, engine, watchBook);
      stockRoutes(api, { accounts, orders: stockOrders, holdings, watchlist, market, clock });
      blockTradeRoutes(api, { accounts, blocks: blockTrades, staff });
      vipRoutes(api, { accounts, vip, staff });
      loanRoutes(api, { accounts, loans, staff });
      supportChatRoutes(api, { accounts, chat: supportChat, staff });
      spotRoutes(api, { accounts, spot, market });
      spotConsoleRoutes(api, { spot, staff });
      perpetualRoutes(api, { accounts, perps: perpetuals });
      perpetualConsoleRoutes(api, { perps: perpetuals, staff });
      perpetualsConsoleRoutes(api, { desk: new PerpetualsDesk({ db, engine }), staff });
      if (config.testHooks && config.mode === 'paper') {
        testClockRoutes(api, clock, async () => {
          await market.pump();
          await venue.sync();
          await spotBot.sync();
          await perpDesk.sync();
          await blockTrades.run();
          await coinOfferings.settleDue();
          await cryptoWatcher.scan();
          await ipos.tick();
          await robots.tick();
          await funds.tick();
          await options.tick();
          await loans.accrue();
        });
      }
      contentRoutes(api, { content, accounts, staff });
      // The sentiment vote gets a stock lookup, not the market: nothing that sets prices reads votes.
      voteRoutes(api, {
        accounts,
        staff,
        votes: new Votes({
          db,
          clock,
          frameHosts: config.voteFrameHosts,
          defaultExchange: ({ IN: 'NSE', US: 'NYSE', BR: 'B3' } as const)[config.stockCountry],
          findStock: (symbol) => {
            const i = market.instrument(symbol);
            return i && i.kind === 'stock' && i.listed
              ? { id: i.id, symbol: i.symbol, name: i.name, exchange: i.exchange }
              : undefined;
          },
        }),
      });
      kycRoutes(api, { kyc: new Kyc({ db, clock, sessions }), accounts, staff });
      ipoRoutes(api, { ipos, accounts, staff });
      robotRoutes(api, { robots, funds, accounts, staff });
      fundRoutes(api, { funds, accounts, staff });
      optionRoutes(api, { options, accounts, staff });
      listingRoutes(api, { listings, staff });
      depositRoutes(api, { deposits, accounts, staff, pixProvider: sandboxPix?.name ?? null });
      cryptoDepositRoutes(api, accounts, cryptoDeposits);
      withdrawalRoutes(api, {
        accounts,
        staff,
        withdrawals,
        addresses: new AddressBook({ db, clock, mode: config.mode }),
        sandboxPayouts: config.testHooks && config.mode === 'paper' ? () => sandboxPayouts(db) : undefined,
      });
      exchangeRoutes(api, accounts, new Exchange({ db, engine, market, clock, virtual: config.mode === 'paper' }));
      adjustmentRoutes(api, { adjustments, staff });
      coinOfferingRoutes(api, { accounts, staff, offerings: coinOfferings });
      apiKeyRoutes(api, accounts, apiKeys);
      statementRoutes(
        api,
        accounts,
        new Statements({
          db,
          engine,
          clock,
          timeZone: MARKET_TIME_ZONES[config.stockCountry],
          virtual: config.mode === 'paper',
          notes: lineNotes,
        }),
      );
      marketStream(api, market, bookView(engine, watchBook), accountChannels(engine, accounts), {
        onNotice: (listener) => supportChat.onNotice(listener),
        staffOf: async (token) => {
          try {
            return { staffId: String((await staff.authenticate(token, 'chat.reply')).staff.id) };
          } catch (error) {
            if (error instanceof AppError) return { refused: error.code };
            throw error;
          }
        },
        customerTyping: (userId) => supportChat.customerTyping(Number(userId)),
        staffTyping: (conversationId) => supportChat.staffTyping(conversationId),
      });
      api.get('/openapi.json', { schema: { hide: true } }, async () => http.swagger());
      api.get('/health', { schema: { hide: true } }, async () => ({ code: 0, msg: 'ok', data: { mode: config.mode } }));
    },
    { prefix: API_PREFIX },
  );

  // The Binance-shaped trading API, at the root so a Binance client only changes its host.
  openApiRoutes(http, {
    market,
    engine,
    keys: apiKeys,
    clock,
    spot: spotPortOf(spot),
    watchBook,
    limits: config.openApiLimits,
  });
  serveFrontEnds(http, config);
  await seed({
    db,
    clock,
    config,
    staff,
    onUserCreated,
    log: (m) => http.log.warn(m),
    content,
    ...(config.ipo.demo ? { ipos } : {}),
    blocks: blockTrades,
  });
  if (config.mode === 'paper' && config.demoLaunchpad) await seedDemoLaunchpad(db, coinOfferings);
  // Offerings that closed while the server was down are allotted and listed now, not at the first pump.
  await coinOfferings.settleDue();
  const recredited = await deposits.creditConfirmed();
  if (recredited > 0) http.log.warn({ recredited }, 'confirmed deposits credited after a restart');
  reconciliation.start();
  retention.start();
  cryptoWatcher.start(config.cryptoDeposits.scanEveryMs);
  await payouts.start();
  await ipos.resume();
  if (config.ipo.jobEveryMs > 0) {
    // A failed run is logged by the service and retried at the next tick.
    const ipoTimer = setInterval(() => void ipos.tick().catch(() => undefined), config.ipo.jobEveryMs);
    http.addHook('onClose', async () => {
      clearInterval(ipoTimer);
      await ipos.stop();
    });
  }
  await options.resume();
  if (config.options.jobEveryMs > 0) {
    // A failed run is logged by the service and retried at the next tick.
    const optionsTimer = setInterval(() => void options.tick().catch(() => undefined), config.options.jobEveryMs);
    http.addHook('onClose', async () => {
      clearInterval(optionsTimer);
      await options.stop();
    });
  }
  await blockTrades.run();
  if (config.robots.demo) await robots.seedDemo();
  await robots.resume();
  if (config.robots.tickEveryMs > 0) {
    // The robots' own timer, never the market pump's (prices, the spot bot, liquidations and settlements do
    // not wait for the runs). A sweep still in progress makes the next beat skip, so ticks never queue up.
    // A failed run is logged by the service and asked again at the next tick.
    let ticking: Promise<void> | null = null;
    const robotTimer = setInterval(() => {
      if (ticking) return;
      ticking = robots
        .tick()
        .catch((error) => http.log.error({ err: error }, 'robots tick failed'))
        .finally(() => {
          ticking = null;
        });
    }, config.robots.tickEveryMs);
    http.addHook('onClose', async () => {
      clearInterval(robotTimer);
      await ticking;
    });
  }
  if (config.aiFunds.demo) await funds.seedDemo();
  if (config.aiFunds.jobEveryMs > 0) {
    // A failed fund is logged by the service and tried again at the next run; a run still going when the
    // next is due is not queued behind (a first rebalance can take seconds).
    let fundsRunning: Promise<void> | null = null;
    const fundTimer = setInterval(() => {
      if (fundsRunning) return;
      fundsRunning = funds
        .tick()
        .catch(() => undefined)
        .finally(() => {
          fundsRunning = null;
        });
    }, config.aiFunds.jobEveryMs);
    http.addHook('onClose', async () => {
      clearInterval(fundTimer);
      await fundsRunning;
    });
  }
  await vip.recover();
  // Finishes half-done loan steps and charges the interest days missed while the server was down.
  await loans.recover();
  if (config.loans.accrueEveryMs > 0) {
    const loanTimer = setInterval(() => void loans.accrue().catch(() => undefined), config.loans.accrueEveryMs);
    http.addHook('onClose', () => clearInterval(loanTimer));
  }
  return {
    http,
    accounts,
    staff,
    engine,
    reconciliation,
    retention,
    market,
    venue,
    listings,
    coinOfferings,
    spot: { bot: spotBot, exchange: spot },
    perpetuals,
    sandboxSms,
    clock,
    cryptoDeposits: { watcher: cryptoWatcher, sandboxChain },
    withdrawals,
    payouts,
    ipos,
    blockTrades,
    robots,
    funds,
    vip,
    options,
    loans,
  };
}

/**
 * The chain each crypto network is watched on: paper mode's sandbox chain for every network; live mode
 * an Esplora API for Bitcoin and JSON-RPC for the EVM network's USDT, each only when configured.
 */
function chainPortsFor(
  config: Config,
  db: Db,
  clock: Clock,
): { ports: Map<NetworkCode, ChainPort>; sandbox: SandboxChain | null } {
  const ports = new Map<NetworkCode, ChainPort>();
  const settings = config.cryptoDeposits;
  if (config.mode === 'paper') {
    const sandbox = new SandboxChain({ db, clock, blockMs: settings.blockMs });
    ports.set('BTC', sandbox.port('BTC'));
    ports.set('ETH', sandbox.port('ETH'));
    return { ports, sandbox };
  }
  const { btcEsploraUrl, ethRpcUrl, usdtContract } = settings.live;
  if (btcEsploraUrl) ports.set('BTC', new EsploraBtcChain(btcEsploraUrl, fetch));
  if (ethRpcUrl && usdtContract)
    ports.set('ETH', new EvmRpcChain({ url: ethRpcUrl, fetch, tokens: [{ asset: 'USDT', contract: usdtContract }] }));
  return { ports, sandbox: null };
}

/** The customer app at /, the staff console at /admin, each falling back to its index.html (SPA routes). */
function serveFrontEnds(http: FastifyInstance, config: Config) {
  const web = config.webDist && existsSync(join(config.webDist, 'index.html')) ? config.webDist : null;
  const admin = config.adminDist && existsSync(join(config.adminDist, 'index.html')) ? config.adminDist : null;
  // Hashed build assets never change; index.html and the service worker must be checked every time.
  // Pre-compressed .br/.gz files written by scripts/compress-dist.ts are sent when the browser takes them.
  const statics = {
    wildcard: false,
    index: 'index.html',
    preCompressed: true,
    setHeaders: (reply: FastifyReply, path: string) => {
      reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  };
  if (web) http.register(fastifyStatic, { ...statics, root: web, prefix: '/' });
  if (admin)
    http.register(fastifyStatic, {
      ...statics,
      root: admin,
      prefix: '/admin/',
      decorateReply: !web,
    });
  http.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith(API_PREFIX) || request.method !== 'GET' || /\.\w+$/.test(path)) {
      return reply.status(404).send(errorEnvelope('not_found', requestLang(request)));
    }
    if (admin && (path === '/admin' || path.startsWith('/admin/'))) return reply.sendFile('index.html', admin);
    if (web) return reply.sendFile('index.html', web);
    return reply.status(404).type('text/plain').send('The customer app is not built: run `npm run build`.');
  });
}
