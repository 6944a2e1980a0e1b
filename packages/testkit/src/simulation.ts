// Owns the seeded simulation: random commands applied to the real engine and to the naive reference,
// checking after every step that results, trades, books and balances agree and that the invariants hold
// (per asset balances sum to zero, no user negative, holds within balances, books uncrossed, balances =
// replay of the transfers, settlement locks = the unsettled buys seen in trade events and within the
// balance). Halts and resumes come at a modest rate, so orders queue while halted, get cancelled or
// refused an amend there, meet band changes before the open, and triggers wait across halts. At the end:
// snapshot/restore, full replay and the start-up replay path (Engine.replay) give the same state hash,
// which is the hash of the snapshot. Fees change now and then (set_instrument_fees), so live orders,
// their holds and fills keep the fees they were placed with while new orders pay new ones.
// The 8-decimal spot pair (BTC-USDT) has a liquidity account, as the crypto exchange's bot: every few
// steps it withdraws its ladder, fills customers' orders at or through the mid with an IOC, tops its
// float up by deposits from platform:liquidity, and quotes post-only levels a side, sizes growing with
// depth; its orders and balances are checked against the reference like everyone's.
// Must hold: the same seed gives the same run. Must not: read the clock or Math.random.

import {
  type ApplyResult,
  type Command,
  canonicalJson,
  decodeCommand,
  Engine,
  type EngineEvent,
  encodeJournalLine,
  hashSnapshot,
  type InstrumentSpec,
  journalMark,
  toJsonSafe,
} from '@bourse/engine';
import { btcPerp, btcUsdt, reliance } from './builders.ts';
import { type NaiveEvent, type NaiveResult, ReferenceEngine } from './reference-engine.ts';
import { SeededRandom } from './seeded-random.ts';

export type SimulationOptions = {
  seed: number;
  commands: number;
  users?: number;
  checkReplay?: boolean;
  /** Run a few loans through their commands after the seeded mix (default true; not with bigAmounts). */
  loans?: boolean;
  /**
   * Amounts past 2^53 minor units: now and then a deposit of ~10^20 USDT or ~10^16 BTC, and a BTC-USDT
   * order of up to 2^40 lots, so balances, holds, fills and fees leave the ledger's safe-integer path.
   */
  bigAmounts?: boolean;
  /**
   * The spot pair's liquidity account (default: on, except with bigAmounts). Off there because with its ladder
   * in the book, fills between two whales (the run's point) became rare (none in 10,000 commands for
   * seeds 1, 2 and 20,261,122).
   */
  marketMaker?: boolean;
};

export type SimulationReport =
  | {
      ok: true;
      seed: number;
      commands: number;
      accepted: number;
      trades: number;
      hash: string;
      /** Accepted commands per type and rejections per code: what the run exercised. */
      coverage: Record<string, number>;
    }
  | { ok: false; seed: number; step: number; message: string; command: Command | undefined };

// Low enough that users reach it now and then (queued orders count too).
const MAX_OPEN_ORDERS = 12;
const CONFIG = { maxOpenOrdersPerUser: MAX_OPEN_ORDERS, rememberedCommandsMax: 5_000 };
/** The spot pair's liquidity account (the server's `mm:<instrument>`), requoting every MM_EVERY steps. */
const MM = 'mm:BTC-USDT';
const MM_EVERY = 20;
const MM_LEVELS = 5; // ten quotes: within the open-order limit
/** How often a step adds a command on the perpetual (an order, a cancel, or one of perpCommand's). */
const PERP_SHARE = 0.3;

type Market = { spec: InstrumentSpec; mid: number };

class Mismatch extends Error {}

export function runSimulation(options: SimulationOptions): SimulationReport {
  const { seed, commands: total } = options;
  const big = options.bigAmounts === true;
  const withMarketMaker = options.marketMaker ?? !big;
  const BEYOND_SAFE = 2n ** 53n;
  const random = new SeededRandom(seed);
  const engine = new Engine(CONFIG);
  const reference = new ReferenceEngine(MAX_OPEN_ORDERS);
  const users = Array.from({ length: options.users ?? 12 }, (_, i) => `u${i}`);
  // tick 0.013 USDT × lot 0.0001 BTC = 1.3 minor units per tick-lot, so notionals and fees round.
  const markets: Market[] = [
    {
      spec: btcUsdt({
        tickSize: '0.013',
        maxPriceTicks: 100_000,
        makerFeeBps: 3,
        takerFeeBps: 7,
        // Lots of 0.01 BTC (130 minor units of USDT per tick-lot) let a fill of 2^40 lots pass 2^53 on both legs.
        ...(big ? { lotSize: '0.01', maxQtyLots: 2 ** 40 } : {}),
      }),
      mid: 5_000,
    },
    { spec: reliance({ makerFeeBps: 2, takerFeeBps: 9 }), mid: 2_000 },
    // A T+1 stock: what is bought stays locked until a random settle_trades releases it.
    {
      spec: reliance({
        id: 'NSE:TCS',
        base: 'SHARE:NSE:TCS',
        makerFeeBps: 1,
        takerFeeBps: 4,
        lockBoughtUntilSettled: true,
      }),
      mid: 3_000,
    },
    // A perpetual: 1 USDT ticks, 0.001 BTC lots, tiers from 500 and 2,000 USDT so small positions change
    // tier; marks move far (liquidations, ADL) and funding is applied now and then (perpCommand).
    {
      spec: btcPerp({
        id: 'BTC-PERP',
        tickSize: '1',
        maxPriceTicks: 100_000,
        makerFeeBps: 2,
        takerFeeBps: 5,
        perpetual: {
          collateral: 'USDT',
          maxLeverage: 50,
          defaultLeverage: 10,
          tiers: [
            { floor: '0', mmrPpm: 10_000, maxLeverage: 50 },
            { floor: '500', mmrPpm: 25_000, maxLeverage: 20 },
            { floor: '2000', mmrPpm: 50_000, maxLeverage: 10 },
          ],
        },
      }),
      mid: 5_000,
    },
  ];
  /** The markets generate() picks from; the perpetual's commands are drawn on their own (PERP_SHARE). */
  const cashMarkets = markets.filter((m) => m.spec.kind !== 'perpetual');
  const perpetual = markets.find((m) => m.spec.kind === 'perpetual') as Market;
  /** Unsettled buys per flagged instrument, from trade events only: [trade id, buyer, lots]. */
  const unsettled = new Map<string, [number, string, number][]>();
  for (const m of markets) if (m.spec.lockBoughtUntilSettled === true) unsettled.set(m.spec.id, []);
  const log: Command[] = [];
  const results: ApplyResult[] = [];
  const replayed = new Map<string, bigint>();
  const transferIds = new Set<string>();
  let accepted = 0;
  let trades = 0;
  const coverage: Record<string, number> = {};
  let snapshotAt: { step: number; json: string } | undefined;
  let step = 0;
  let command: Command | undefined;
  const nextBase = () => ({ id: `s${seed}-${log.length}`, timeMs: 1_700_000_000_000 + log.length });
  /** Instruments whose band was set while they were halted (the open then meets a new band). */
  const bandMovedWhileHalted = new Set<string>();
  const tally = (path: string) => {
    coverage[path] = (coverage[path] ?? 0) + 1;
  };

  try {
    for (const m of markets) {
      command = { ...nextBase(), type: 'register_instrument', instrument: m.spec };
      applyBoth(command);
    }
    for (step = 0; step < total; step++) {
      if (withMarketMaker && step % MM_EVERY === 0) {
        for (const c of requote()) {
          command = c;
          applyBoth(c);
        }
      }
      command = generate();
      if (command !== undefined) applyBoth(command);
      // The perpetual's commands come on top of the others' mix, which keeps its shares (and coverage).
      if (random.chance(PERP_SHARE)) {
        command = generate(perpetual);
        if (command !== undefined) applyBoth(command);
      }
      if (options.checkReplay !== false && snapshotAt === undefined && step >= total / 2) {
        snapshotAt = { step: log.length, json: JSON.stringify(engine.snapshot()) };
        // The state hash walks the state in place; it must equal the hash of the snapshot it describes.
        if (hashSnapshot(JSON.parse(snapshotAt.json)) !== engine.stateHash())
          throw new Mismatch('the state hash is not the hash of the snapshot');
      }
    }
    // Loans (decision 0039) use existing commands on a platform account per loan: a payout from loan:<n>,
    // interest by day from it to the fees account, a repayment held and posted back to it. They run after
    // the seeded mix, on a random of their own, so the mix (and the paths its seeds were picked for) stays
    // as it was; the engine and the reference are compared after each command as everywhere else.
    if (options.loans !== false && !big) {
      const loanRandom = new SeededRandom(seed + 39);
      for (let n = 1; n <= 6; n++) {
        const userId = loanRandom.pick(users);
        const account = `loan:${n}` as const;
        const principal = loanRandom.int(100, 5_000);
        const daily = loanRandom.int(1, 5);
        const days = loanRandom.int(1, 10);
        const loan: Command[] = [
          {
            ...nextBase(),
            type: 'deposit',
            userId,
            wallet: 'stock',
            asset: 'INR',
            amount: `${principal}`,
            from: account,
            cause: 'loan',
            link: account,
          },
        ];
        for (let day = 1; day <= days; day++)
          loan.push({
            ...nextBase(),
            id: `${account}:interest:${day}`,
            type: 'platform_transfer',
            from: account,
            to: 'fees',
            asset: 'INR',
            amount: `${daily}`,
            cause: 'interest',
            link: account,
          });
        for (const c of loan) {
          command = c;
          applyBoth(c);
        }
        const hold: Command = {
          ...nextBase(),
          id: `${account}:repay:hold`,
          type: 'hold_funds',
          userId,
          wallet: 'stock',
          asset: 'INR',
          amount: `${principal + daily * days}`,
          cause: 'loan_repayment',
          link: account,
        };
        command = hold;
        applyBoth(hold);
        const post: Command = {
          ...nextBase(),
          id: `${account}:repay`,
          type: 'post_hold',
          holdId: hold.id,
          to: account,
        };
        command = post;
        applyBoth(post);
        if (engine.balance(`platform:${account}`, 'platform', 'INR').balance === 0n) tally('loan:repaid_to_zero');
      }
    }
    command = undefined;
    const hash = engine.stateHash();
    if (hashSnapshot(engine.snapshot()) !== hash) throw new Mismatch('the state hash is not the hash of the snapshot');
    if (options.checkReplay !== false) checkReplay(hash);
    return { ok: true, seed, commands: total, accepted, trades, hash, coverage };
  } catch (error) {
    if (!(error instanceof Mismatch) && !(error instanceof Error)) throw error;
    return { ok: false, seed, step, message: (error as Error).message, command };
  }

  function applyBoth(c: Command): void {
    log.push(c);
    const blockedByLocks = isBlockedByLocks(c);
    const cancelsQueued = c.type === 'cancel_order' && engine.order(c.orderId)?.queued === true;
    const real = engine.apply(c);
    // The idempotency memory keeps results encoded: the repeat must decode to the same result.
    const again = engine.apply(c);
    if (JSON.stringify(toJsonSafe(again)) !== JSON.stringify(toJsonSafe(real))) {
      throw new Mismatch(`repeating ${c.id} answered ${JSON.stringify(toJsonSafe(again))}`);
    }
    results.push(real);
    const naive = reference.apply(c);
    compareResults(real, naive);
    tally(real.ok ? c.type : `${c.type}:${real.code}`);
    if (blockedByLocks && !real.ok) tally('place_order:refused_by_settlement_locks');
    if (real.ok && c.type === 'deposit' && c.asset.startsWith('COIN')) tally('deposit:registered_coin');
    if (c.type === 'post_hold' && c.fee !== undefined)
      tally(real.ok ? 'post_hold:with_fee' : `post_hold:with_fee:${real.code}`);
    if (real.ok && 'userId' in c && c.userId === MM) tally(`mm:${c.type}`);
    if (real.ok) {
      accepted += 1;
      if (cancelsQueued) tally('cancel_order:queued');
      tallyHalts(c, real.events);
      for (const event of real.events) replay(event);
      if (c.type === 'settle_trades') {
        const locks = unsettled.get(c.instrumentId);
        if (locks !== undefined)
          unsettled.set(
            c.instrumentId,
            locks.filter(([id]) => id > c.upToTradeId),
          );
      }
    }
    checkState();
  }

  /** A sell the user could pay for if their unsettled buys were not locked. */
  function isBlockedByLocks(c: Command): boolean {
    if (c.type !== 'place_order' || c.side !== 'sell' || !unsettled.has(c.instrumentId)) return false;
    const spec = markets.find((m) => m.spec.id === c.instrumentId)?.spec as InstrumentSpec;
    const { available } = engine.balance(c.userId, spec.wallet, spec.base);
    const locked = engine.settlementLocks(c.userId, c.instrumentId).reduce((sum, lock) => sum + lock.qtyLots, 0);
    return available < BigInt(c.qtyLots) && available + BigInt(locked) >= BigInt(c.qtyLots);
  }

  /** Coverage of the halted paths: queued orders and how each ended, opens after a band change. */
  function tallyHalts(c: Command, events: EngineEvent[]): void {
    for (const e of events) {
      if (e.type === 'order_placed' && e.queued === true) tally(`order_placed:queued:${e.orderType}`);
      if (e.type === 'order_updated' && (e.reason === 'no_liquidity' || e.reason === 'price_outside_band'))
        tally(`${c.type}:${e.status}:${e.reason}`);
      // A fill-or-kill order that waited for its trigger and could not fill when it fired.
      if (e.type === 'order_updated' && e.reason === 'fok_not_fillable' && c.type !== 'place_order')
        tally('trigger_fired:fok_not_fillable');
    }
    for (const e of events) {
      if (e.type === 'position_liquidated') tally(e.adlLots > 0 ? 'liquidate:with_adl' : 'liquidate:in_book');
      if (e.type === 'position_liquidated' && e.insuranceFund < 0n) tally('liquidate:paid_by_insurance_fund');
      if (e.type === 'position_changed' && e.reason === 'trade' && e.sizeLots === 0) tally('position:closed');
      if (e.type === 'funding_applied' && e.paid > 0n) tally('apply_funding:paid');
      if (e.type === 'order_updated' && e.reason === 'reduce_only') tally('reduce_only:nothing_left');
      if (e.type === 'order_updated' && e.reason === 'liquidation') tally('liquidate:cancelled_orders');
    }
    // An order that swept five or more price levels.
    const levels = new Set(events.flatMap((e) => (e.type === 'trade' ? [e.priceTicks] : [])));
    if (c.type === 'place_order' && levels.size >= 5) tally('place_order:swept_5_levels');

    if (c.type === 'set_reference_price' && reference.isHalted(c.instrumentId))
      bandMovedWhileHalted.add(c.instrumentId);
    if (c.type !== 'set_trading_status' || c.halted) return;
    const bandMoved = bandMovedWhileHalted.delete(c.instrumentId);
    if (bandMoved) tally('set_trading_status:open_after_band_change');
    if (events.some((e) => e.type === 'trade')) tally('set_trading_status:open_with_trades');
    if (events.some((e) => e.type === 'order_updated' && e.reason === 'triggered'))
      tally('set_trading_status:open_fires_triggers');
  }

  function replay(event: EngineEvent): void {
    if (event.type === 'trade') {
      trades += 1;
      if (event.makerUserId === MM || event.takerUserId === MM) tally('mm:trade');
      const buyer = event.takerSide === 'buy' ? event.takerUserId : event.makerUserId;
      unsettled.get(event.instrumentId)?.push([event.tradeId, buyer, event.qtyLots]);
    }
    if (event.type !== 'transfer_posted') return;
    // The host stores transfers under their id: no two may share one.
    if (transferIds.has(event.transferId)) throw new Mismatch(`transfer id ${event.transferId} used twice`);
    transferIds.add(event.transferId);
    if (event.amount > BEYOND_SAFE) tally(`transfer:${event.cause}:beyond_2^53`);
    replayed.set(event.debit, (replayed.get(event.debit) ?? 0n) - event.amount);
    replayed.set(event.credit, (replayed.get(event.credit) ?? 0n) + event.amount);
  }

  function compareResults(real: ApplyResult, naive: NaiveResult): void {
    if (real.ok !== naive.ok) {
      throw new Mismatch(
        `engine ${real.ok ? 'accepted' : `rejected (${(real as { code: string }).code})`}, reference ${naive.ok ? 'accepted' : `rejected (${(naive as { code: string }).code})`}`,
      );
    }
    if (!real.ok || !naive.ok) {
      if (!real.ok && !naive.ok && real.code !== naive.code)
        throw new Mismatch(`rejection ${real.code} vs reference ${naive.code}`);
      return;
    }
    const realTrades = real.events.flatMap((e) =>
      e.type === 'trade' ? [[e.priceTicks, e.qtyLots, e.makerOrderId, e.takerOrderId]] : [],
    );
    if (JSON.stringify(realTrades) !== JSON.stringify(naive.trades)) {
      throw new Mismatch(`trades ${JSON.stringify(realTrades)} vs reference ${JSON.stringify(naive.trades)}`);
    }
    // What happened to each order, in order: placed (price, queued), trades, triggered, how it ended.
    const realEvents = real.events.flatMap((e): NaiveEvent[] => {
      if (e.type === 'order_placed') return [['placed', e.orderId, e.priceTicks, e.queued === true]];
      if (e.type === 'trade') return [['trade', e.priceTicks, e.qtyLots, e.makerOrderId, e.takerOrderId]];
      if (e.type !== 'order_updated') return [];
      if (e.reason === 'triggered') return [['triggered', e.orderId]];
      if (e.status === 'filled' || e.status === 'cancelled' || e.status === 'rejected')
        return [['done', e.orderId, e.status, e.reason]];
      return [];
    });
    if (JSON.stringify(realEvents) !== JSON.stringify(naive.events)) {
      throw new Mismatch(`events ${JSON.stringify(realEvents)} vs reference ${JSON.stringify(naive.events)}`);
    }
  }

  function checkState(): void {
    const broken = engine.findBrokenInvariant();
    if (broken !== undefined) throw new Mismatch(`invariant: ${broken}`);
    let nonZero = 0;
    for (const account of engine.accounts()) {
      const naive = reference.balances.get(account.key) ?? { balance: 0n, held: 0n };
      if (naive.balance !== account.balance || naive.held !== account.held) {
        throw new Mismatch(
          `${account.key}: ${account.balance}/${account.held} vs reference ${naive.balance}/${naive.held}`,
        );
      }
      if ((replayed.get(account.key) ?? 0n) !== account.balance) {
        throw new Mismatch(
          `${account.key}: balance ${account.balance} but its transfers replay to ${replayed.get(account.key) ?? 0n}`,
        );
      }
      if (account.balance !== 0n || account.held !== 0n) nonZero += 1;
    }
    let naiveNonZero = 0;
    for (const b of reference.balances.values()) if (b.balance !== 0n || b.held !== 0n) naiveNonZero += 1;
    if (naiveNonZero !== nonZero)
      throw new Mismatch(`reference has ${naiveNonZero} non-empty accounts, engine ${nonZero}`);
    for (const [instrumentId, locks] of unsettled) {
      const naive = JSON.stringify(
        reference.locks.filter(([id]) => id === instrumentId).map(([, t, u, q]) => [t, u, q]),
      );
      if (JSON.stringify(locks) !== naive)
        throw new Mismatch(`${instrumentId} locks differ from the reference: ${naive}`);
      const spec = markets.find((m) => m.spec.id === instrumentId)?.spec as InstrumentSpec;
      for (const user of users) {
        const mine = locks.filter(([, u]) => u === user).map(([t, , q]) => ({ tradeId: t, qtyLots: q }));
        const seen = engine.settlementLocks(user, instrumentId).map(({ tradeId, qtyLots }) => ({ tradeId, qtyLots }));
        if (JSON.stringify(seen) !== JSON.stringify(mine)) {
          throw new Mismatch(
            `${user} ${instrumentId} locks ${JSON.stringify(seen)}, unsettled buys ${JSON.stringify(mine)}`,
          );
        }
        const locked = BigInt(mine.reduce((sum, lock) => sum + lock.qtyLots, 0)); // lot = 1 share
        const { balance, held } = engine.balance(user, spec.wallet, spec.base);
        if (locked > held || held > balance)
          throw new Mismatch(`${user} ${instrumentId}: locked ${locked}, held ${held}, balance ${balance}`);
      }
    }
    for (const user of [...users, MM]) {
      const live = engine
        .openOrders(user)
        .sort((a, b) => a.orderId - b.orderId)
        .map((o) => [
          o.orderId,
          o.queued ? 'queue' : o.waitingForTrigger ? 'trigger' : 'book',
          o.priceTicks,
          o.remainingLots,
          o.holdAmount,
        ]);
      const naive = reference.ordersOf(user);
      if (canonicalJson(live) !== canonicalJson(naive)) {
        throw new Mismatch(`${user} orders ${canonicalJson(live)} vs reference ${canonicalJson(naive)}`);
      }
    }
    for (const { spec } of markets) {
      if (spec.kind !== 'perpetual') continue;
      const real = engine.positions(spec.id).map((p) => [p.userId, p.sizeLots, p.entryNotional, p.margin]);
      const naive = reference.positionsOf(spec.id);
      if (canonicalJson(real) !== canonicalJson(naive)) {
        throw new Mismatch(`${spec.id} positions ${canonicalJson(real)} vs reference ${canonicalJson(naive)}`);
      }
    }
    for (const { spec } of markets) {
      const depth = engine.depth(spec.id, 1_000_000);
      const bids = JSON.stringify(reference.depth(spec.id, 'buy'));
      const asks = JSON.stringify(reference.depth(spec.id, 'sell'));
      if (JSON.stringify(depth.bids) !== bids || JSON.stringify(depth.asks) !== asks) {
        throw new Mismatch(`${spec.id} book differs: ${JSON.stringify(depth)} vs reference bids ${bids} asks ${asks}`);
      }
    }
  }

  function checkReplay(hash: string): void {
    const fresh = new Engine(CONFIG);
    for (const c of log) fresh.apply(c);
    if (fresh.stateHash() !== hash) throw new Mismatch('replaying the whole command log gives another state hash');
    // The start-up path: Engine.replay() over the journal as the host writes and reads it: each command
    // through its journal line (which must give it back with its keys in order), every command followed
    // by its repeat (as applyBoth sent them), each line marked by what apply() made of its command (the
    // repeats `=`), so the window's last 2 × rememberedCommandsMax entries are half repeats
    // (docs/decisions/0010-journal-repeat-marks.md).
    const marker = new Engine(CONFIG);
    const lines = log.flatMap((c) => {
      const line = encodeJournalLine(c, false);
      const read = decodeCommand(line);
      if (JSON.stringify(read) !== JSON.stringify(c))
        throw new Mismatch(`journal line ${JSON.stringify(line)} reads back as ${JSON.stringify(read)}`);
      return [read, read].map((command) => {
        marker.apply(command);
        return encodeJournalLine(command, marker.lastApplyWasRepeat);
      });
    });
    const replayed = new Engine(CONFIG);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      replayed.replay(decodeCommand(line), lines.length - 1 - i, journalMark(line));
    }
    if (!replayed.replayComplete()) throw new Mismatch('Engine.replay() of the journal could not rebuild the window');
    if (replayed.stateHash() !== hash) throw new Mismatch('Engine.replay() of the journal gives another state hash');
    for (const c of log.slice(-CONFIG.rememberedCommandsMax)) {
      const answer = JSON.stringify(toJsonSafe(replayed.apply(c)));
      if (answer !== JSON.stringify(toJsonSafe(fresh.apply(c))))
        throw new Mismatch(`after Engine.replay(), repeating ${c.id} answers ${answer}`);
    }
    if (snapshotAt === undefined) return;
    const restored = Engine.restore(JSON.parse(snapshotAt.json));
    for (const c of log.slice(snapshotAt.step)) restored.apply(c);
    if (restored.stateHash() !== hash) throw new Mismatch('snapshot, restore and replay gives another state hash');
  }

  /**
   * The liquidity account's turn on the spot pair: cancel its ladder, fill what crosses the mid (IOC at
   * the mid), fund itself from platform:liquidity when low, and quote MM_LEVELS post-only levels a side.
   * A generator: each command is built after the one before it was applied (ids and balances follow).
   */
  function* requote(): Generator<Command> {
    const { spec, mid } = markets[0] as Market;
    for (const orderId of reference.liveOrderIds(MM))
      yield { ...nextBase(), type: 'cancel_order', userId: MM, orderId };
    // Halted (the simulation's sessions): the ladder stays withdrawn until trading resumes.
    if (reference.isHalted(spec.id)) return;
    const funds: ['USDT' | 'BTC', bigint, string][] = [
      ['USDT', 20_000_000_000n, '50000'],
      ['BTC', 50_000_000n, '2'],
    ];
    for (const [asset, below, amount] of funds) {
      if (engine.balance(MM, 'spot', asset).available >= below) continue;
      yield {
        ...nextBase(),
        type: 'deposit',
        userId: MM,
        wallet: 'spot',
        asset,
        amount,
        from: 'liquidity',
        cause: 'deposit',
      };
    }
    const order = (side: 'buy' | 'sell', priceTicks: number, qtyLots: number, ioc: boolean): Command => ({
      ...nextBase(),
      type: 'place_order',
      userId: MM,
      instrumentId: spec.id,
      side,
      orderType: 'limit',
      priceTicks,
      qtyLots,
      ...(ioc ? { timeInForce: 'ioc' as const } : { postOnly: true }),
    });
    const bestBid = reference.depth(spec.id, 'buy')[0]?.[0];
    if (bestBid !== undefined && bestBid >= mid) yield order('sell', mid, 60, true);
    const bestAsk = reference.depth(spec.id, 'sell')[0]?.[0];
    if (bestAsk !== undefined && bestAsk <= mid) yield order('buy', mid, 60, true);
    for (let k = 1; k <= MM_LEVELS; k++) {
      yield order('buy', Math.max(1, mid - 2 * k), 4 * k, false);
      yield order('sell', mid + 2 * k, 4 * k, false);
    }
  }

  /** A limit order waiting for its trigger: good till cancelled, or immediate or fill-or-kill once fired. */
  function triggeredTimeInForce(t: number): { timeInForce?: 'ioc' | 'fok' } {
    return t < 0.2 ? { timeInForce: 'ioc' } : t < 0.35 ? { timeInForce: 'fok' } : {};
  }

  function generate(forced?: Market): Command | undefined {
    const r = random.next();
    const user = random.pick(users);
    const market = forced ?? random.pick(cashMarkets);
    const { spec } = market;
    if (spec.kind === 'perpetual' && random.chance(0.3)) return perpCommand(user, market);
    const base = () => nextBase();
    const near = (spread: number) => Math.max(1, market.mid + random.int(-spread, spread));
    if (r < 0.03) {
      const [asset, wallet, amount, from] = random.pick([
        ['USDT', 'spot', `${random.int(1, 40)}.${random.int(0, 999999)}`, 'faucet'],
        ['BTC', 'spot', `0.00${random.int(1, 99)}`, 'faucet'],
        ['INR', 'spot', `${random.int(100, 50_000)}.${random.int(10, 99)}`, 'rail:upi'],
        ['SHARE:NSE:RELIANCE', 'stock', `${random.int(1, 200)}`, 'issuer:NSE'],
        ['SHARE:NSE:TCS', 'stock', `${random.int(1, 60)}`, 'issuer:NSE'],
        ['INR', 'stock', `${random.int(100, 50_000)}`, 'rail:upi'],
      ] as const);
      const whale = big && (asset === 'USDT' || asset === 'BTC') && random.chance(0.1);
      return {
        ...base(),
        type: 'deposit',
        userId: user,
        wallet,
        asset,
        amount: whale ? `${random.int(1, 9)}${asset === 'USDT' ? '00000000000000000000' : '0000000000000000'}` : amount,
        from,
        cause: from === 'faucet' ? 'paper_grant' : 'deposit',
      };
    }
    if (r < 0.05) {
      const toStock = random.chance(0.7);
      return {
        ...base(),
        type: 'wallet_transfer',
        userId: user,
        asset: 'INR',
        fromWallet: toStock ? 'spot' : 'stock',
        toWallet: toStock ? 'stock' : 'spot',
        amount: `${random.int(1, 20_000)}`,
      };
    }
    if (r < 0.065) return fundsHoldCommand(user);
    if (r < 0.075) {
      // The host's calendar: settle everything up to a recent trade (sometimes all, sometimes none).
      const upToTradeId = Math.max(0, trades - random.int(0, 300));
      return { ...base(), type: 'settle_trades', instrumentId: spec.id, upToTradeId };
    }
    if (r < 0.083) {
      // The session closes and opens: a halt lasts a few hundred steps; sometimes the status repeats.
      const halted = reference.isHalted(spec.id);
      const flip = random.chance(halted ? 0.9 : 0.3);
      return { ...base(), type: 'set_trading_status', instrumentId: spec.id, halted: flip ? !halted : halted };
    }
    const side = random.chance(0.5) ? 'buy' : 'sell';
    const order = {
      ...base(),
      type: 'place_order' as const,
      userId: user,
      instrumentId: spec.id,
      side: side as 'buy' | 'sell',
    };
    const qtyLots = big && spec.id === 'BTC-USDT' && random.chance(0.1) ? random.int(1, 2 ** 40) : random.int(1, 30);
    const stp = random.chance(0.85)
      ? undefined
      : random.pick(['cancel_resting', 'cancel_taker', 'cancel_both'] as const);
    if (r < 0.5) {
      const t = random.next();
      const extra =
        t < 0.75
          ? {}
          : t < 0.87
            ? { timeInForce: 'ioc' as const }
            : t < 0.95
              ? { timeInForce: 'fok' as const }
              : { postOnly: true };
      return { ...order, orderType: 'limit', priceTicks: near(25), qtyLots, ...extra, ...(stp ? { stp } : {}) };
    }
    if (r < 0.58) {
      // Now and then a large one, which sweeps several levels (it never rests, so it ties up no funds).
      const lots = random.chance(0.03) ? random.int(100, 600) : qtyLots;
      return { ...order, orderType: 'market', qtyLots: lots, ...(stp ? { stp } : {}) };
    }
    if (r < 0.63) {
      const trigger = {
        kind: random.pick(['stop', 'take_profit'] as const),
        priceTicks: near(30),
        by: random.pick(['last', 'mark'] as const),
      };
      if (random.chance(0.5)) return { ...order, orderType: 'market', qtyLots, trigger };
      return {
        ...order,
        orderType: 'limit',
        priceTicks: near(25),
        qtyLots,
        trigger,
        ...triggeredTimeInForce(random.next()),
      };
    }
    if (r < 0.83) {
      const live = reference.liveOrderIds(user);
      const orderId = live.length > 0 && random.chance(0.9) ? random.pick(live) : random.int(1, 1_000_000);
      return { ...base(), type: 'cancel_order', userId: user, orderId };
    }
    if (r < 0.91) {
      // Now and then a queued order, which amend refuses until the open.
      const queued = reference.queuedOrderIds(user);
      const resting = queued.length > 0 && random.chance(0.1) ? queued : reference.restingOrderIds(user);
      if (resting.length === 0) return undefined;
      const change = random.int(0, 2);
      return {
        ...base(),
        type: 'amend_order',
        userId: user,
        orderId: random.pick(resting),
        ...(change !== 1 ? { priceTicks: near(25) } : {}),
        ...(change !== 0 ? { qtyLots: random.int(1, 40) } : {}),
      };
    }
    if (r < 0.95) return { ...base(), type: 'set_mark_price', instrumentId: spec.id, priceTicks: near(30) };
    if (r < 0.965) {
      const b = random.next();
      // None, wide, or narrow (a few ticks, maybe off the mid, so resting orders and triggers sit outside).
      const lo = b < 0.8 ? market.mid - 100 : market.mid - random.int(-3, 8);
      const hi = b < 0.8 ? market.mid + 100 : Math.max(lo, market.mid + random.int(-3, 8));
      const band = b < 0.4 ? {} : { bandLoTicks: Math.max(1, lo), bandHiTicks: Math.max(1, hi) };
      return { ...base(), type: 'set_reference_price', instrumentId: spec.id, priceTicks: market.mid, ...band };
    }
    if (r < 0.98 && log.length > 10) {
      const at = log.length - random.int(1, Math.min(50, log.length - 1));
      // A retry keeps its first answer even when the sequencer stamped it with another time.
      const again = random.chance(0.5)
        ? (log[at] as Command)
        : { ...(log[at] as Command), timeMs: (log[at] as Command).timeMs + random.int(1, 1_000) };
      const first = results[at] as ApplyResult;
      if (JSON.stringify(toJsonSafe(engine.apply(again))) !== JSON.stringify(toJsonSafe(first))) {
        throw new Mismatch(`re-applying ${again.id} did not answer its first result`);
      }
      return undefined;
    }
    if (r >= 0.98 && r < 0.983) return feesCommand(spec.id);
    if (r >= 0.983 && r < 0.985) return assetCommand(user);
    if (r >= 0.985 && r < 0.99) return convertCommand(user);
    if (r >= 0.99 && r < 0.996) return optionCommand(user);
    market.mid = Math.max(200, market.mid + random.int(-3, 3));
    return undefined;
  }

  /**
   * A perpetual's own commands: collateral deposits, leverage (sometimes out of range), margin added or
   * removed, far mark moves, liquidations (mostly of a user with a position, refused while healthy) and
   * funding at a signed rate.
   */
  function perpCommand(user: string, market: Market): Command {
    const instrumentId = market.spec.id;
    const t = random.next();
    const base = nextBase();
    if (t < 0.2) {
      const amount = `${random.int(20, 900)}.${random.int(0, 999999)}`;
      return {
        ...base,
        type: 'deposit',
        userId: user,
        wallet: 'contract',
        asset: 'USDT',
        amount,
        from: 'faucet',
        cause: 'paper_grant',
      };
    }
    if (t < 0.32) {
      const leverage = random.chance(0.1) ? random.pick([0, 51, 2.5]) : random.int(1, 50);
      return { ...base, type: 'set_leverage', userId: user, instrumentId, leverage };
    }
    if (t < 0.44) {
      const amount = `${random.chance(0.5) ? '-' : ''}${random.int(0, 60)}.${random.int(1, 99)}`;
      return { ...base, type: 'adjust_margin', userId: user, instrumentId, amount };
    }
    if (t < 0.68) {
      const priceTicks = Math.max(1, market.mid + random.int(-900, 900));
      return { ...base, type: 'set_mark_price', instrumentId, priceTicks };
    }
    if (t < 0.92) {
      const holders = engine.positions(instrumentId).map((p) => p.userId);
      const who = holders.length > 0 && random.chance(0.9) ? random.pick(holders) : user;
      return { ...base, type: 'liquidate', userId: who, instrumentId };
    }
    if (t < 0.96) {
      // A close or a TP/SL: reduce-only, against the user's position (sometimes none: refused), now or on
      // a mark trigger, for up to more than the position has (cut when it executes).
      const position = engine.positions(instrumentId).find((p) => p.userId === user);
      const side: 'buy' | 'sell' =
        position === undefined || random.chance(0.05) ? 'sell' : position.sizeLots > 0 ? 'sell' : 'buy';
      const qtyLots = random.int(1, Math.max(1, Math.abs(position?.sizeLots ?? 10) + 5));
      const order = {
        ...base,
        type: 'place_order' as const,
        userId: user,
        instrumentId,
        side,
        qtyLots,
        reduceOnly: true,
      };
      if (random.chance(0.5)) return { ...order, orderType: 'market' };
      const kind = random.pick(['stop', 'take_profit'] as const);
      // The side of the mark it fires from (refused as invalid_trigger_price when already there).
      const priceTicks = Math.max(1, market.mid + random.int(-400, 400));
      return { ...order, orderType: 'market', trigger: { kind, priceTicks, by: 'mark' } };
    }
    return { ...base, type: 'apply_funding', instrumentId, ratePpm: random.int(-900, 900) };
  }

  /**
   * A coin offering's new coin (register_asset, sometimes one already registered or a bad definition),
   * or a grant of a coin registered so, at its own scale.
   */
  function assetCommand(user: string): Command {
    const coins = [...reference.assets.keys()].filter((code) => code.startsWith('COIN'));
    if (coins.length > 0 && random.chance(0.5)) {
      const coin = random.pick(coins);
      const scale = reference.assets.get(coin) as number;
      const amount = scale === 0 ? `${random.int(1, 999)}` : `${random.int(0, 999)}.${'7'.repeat(scale)}`;
      return {
        ...nextBase(),
        type: 'deposit',
        userId: user,
        wallet: 'spot',
        asset: coin,
        amount,
        from: 'faucet',
        cause: 'paper_grant',
      };
    }
    const t = random.next();
    const asset = t < 0.05 ? random.pick(['coin1', 'SHARE:NSE:TCS', 'X', 'USDT']) : `COIN${random.int(1, 12)}`;
    const scale = t >= 0.05 && t < 0.1 ? random.pick([-1, 37, 2.5]) : random.int(0, 24);
    const kind =
      t >= 0.1 && t < 0.13 ? random.pick(['share', 'meme'] as const) : random.pick(['crypto', 'collateral'] as const);
    return { ...nextBase(), type: 'register_asset', asset, scale, kind: kind as 'crypto' };
  }

  /**
   * An option bought with the stock wallet's INR (sometimes more than the user has, at or after its
   * expiry, or under a position id already used), closed early at a bid (sometimes someone else's, or
   * after the expiry), or a batch of expired positions settled (sometimes one not yet expired: all refused).
   */
  function optionCommand(user: string): Command {
    const base = nextBase();
    const open = engine.optionPositions();
    const t = random.next();
    if (t < 0.45 || open.length === 0) {
      const reuse = open.length > 0 && random.chance(0.05);
      return {
        ...base,
        type: 'buy_option',
        positionId: reuse ? random.pick(open).positionId : `option:${log.length}`,
        userId: user,
        wallet: 'stock',
        asset: 'INR',
        amount: `${random.int(1, random.chance(0.1) ? 90_000 : 3_000)}.${random.int(0, 99)}`,
        series: random.pick(['NSE:NIFTY50/2026-12-04/C/25000', 'NSE:NIFTY50/2026-12-04/P/24500']),
        contracts: random.int(1, 5),
        expiresMs: base.timeMs + random.int(-3, 3_000),
      };
    }
    const position = random.pick(open);
    if (t < 0.75) {
      const userId = random.chance(0.9) ? position.userId : user;
      const amount = `${random.int(0, 4_000)}.${random.int(0, 99)}`;
      return { ...base, type: 'close_option', positionId: position.positionId, userId, amount };
    }
    const expired = open.filter((p) => p.expiresMs <= base.timeMs);
    const batch = expired.length > 0 && random.chance(0.85) ? expired.slice(0, random.int(1, 4)) : [position];
    const entries = batch.map(
      (p) => [p.positionId, random.chance(0.5) ? '0' : `${random.int(0, 9_000)}.${random.int(0, 99)}`] as const,
    );
    return { ...base, type: 'settle_options', entries };
  }

  /** New fees for orders placed from now on (0 to 30 bps); now and then out of range or unknown. */
  function feesCommand(instrumentId: string): Command {
    const t = random.next();
    const makerFeeBps = t < 0.03 ? random.pick([-1, 1_001, 2.5]) : random.int(0, 30);
    const takerFeeBps = random.int(0, 30);
    const id = t > 0.98 ? 'NOPE' : instrumentId;
    return { ...nextBase(), type: 'set_instrument_fees', instrumentId: id, makerFeeBps, takerFeeBps };
  }

  /**
   * A convert at a quoted rate: USDT into BTC (spot) or INR into USD (stock), sometimes more than the
   * user has (insufficient_balance), now and then both legs in one asset (same_asset).
   */
  function convertCommand(user: string): Command {
    const [wallet, asset, amount, toAsset, toAmount, via] = random.pick([
      [
        'spot',
        'USDT',
        `${random.int(1, 400)}.${random.int(0, 999999)}`,
        'BTC',
        `0.000${random.int(1, 999)}`,
        'exchange:crypto',
      ],
      [
        'spot',
        'BTC',
        `0.000${random.int(1, 99)}`,
        'USDT',
        `${random.int(1, 60)}.${random.int(0, 99)}`,
        'exchange:crypto',
      ],
      [
        'stock',
        'INR',
        `${random.int(100, 60_000)}`,
        'USD',
        `${random.int(1, 700)}.${random.int(10, 99)}`,
        'exchange:fx',
      ],
      ['stock', 'INR', '5', 'INR', '5', 'exchange:fx'],
    ] as const);
    return {
      ...nextBase(),
      type: 'convert',
      userId: user,
      wallet,
      asset,
      amount,
      toAsset,
      toAmount,
      via,
      link: `quote:${seed}:${log.length}`,
    };
  }

  /** hold_funds (a withdrawal waiting for its rail), then post all or part of it, or void it. */
  function fundsHoldCommand(user: string): Command {
    const live = [...reference.fundsHolds.keys()];
    const t = random.next();
    if (t < 0.45 || live.length === 0) {
      const [asset, wallet, amount] = random.pick([
        ['USDT', 'spot', `${random.int(1, 30)}.${random.int(0, 999)}`],
        ['BTC', 'spot', `0.000${random.int(1, 99)}`],
        ['INR', 'stock', `${random.int(1, 20_000)}`],
        ['SHARE:NSE:TCS', 'stock', `${random.int(1, 10)}`],
      ] as const);
      return { ...nextBase(), type: 'hold_funds', userId: user, wallet, asset, amount, cause: 'withdrawal' };
    }
    const holdId = random.chance(0.95) ? random.pick(live) : `s${seed}-nope`;
    if (t < 0.8) {
      const amount = random.chance(0.4) ? undefined : random.pick(['1', '0.5', '3', '0.00001']);
      // A withdrawal paid out takes its fee from the amount (a fee as large as what is posted is refused).
      const fee =
        random.chance(0.35) && !holdId.endsWith('nope') ? amountFor(holdId, random.pick(['1', '0.5'])) : undefined;
      return {
        ...nextBase(),
        type: 'post_hold',
        holdId,
        to: 'rail:upi',
        ...(amount !== undefined && !holdId.endsWith('nope') ? { amount: amountFor(holdId, amount) } : {}),
        ...(fee !== undefined ? { fee } : {}),
      };
    }
    if (t < 0.94) return allotmentCommand(live);
    return { ...nextBase(), type: 'void_hold', holdId };
  }

  /**
   * settle_allotment of one to three holds as subscriptions to an offering of NEWCO shares: each pays a
   * little and gets 5 shares (locked or not), or is refunded; now and then a batch that must be refused
   * whole (a payment with nothing delivered, or a hold named twice).
   */
  function allotmentCommand(live: string[]): Command {
    const holds = Array.from({ length: random.int(1, 3) }, () => random.pick(live));
    const entries = holds.map((holdId): [string, string, string] =>
      random.chance(0.7) ? [holdId, amountFor(holdId, random.pick(['1', '0.5'])), '5'] : [holdId, '0', '0'],
    );
    if (random.chance(0.05)) entries.push([entries[0]?.[0] ?? 'x', '1', '0']);
    return {
      ...nextBase(),
      type: 'settle_allotment',
      to: 'issuer:newco',
      asset: 'SHARE:NSE:NEWCO',
      wallet: 'stock',
      lock: random.chance(0.5),
      entries,
    };
  }

  /** A decimal the hold's asset can parse (shares take whole numbers). */
  function amountFor(holdId: string, amount: string): string {
    const asset = reference.fundsHolds.get(holdId)?.asset;
    if (asset?.startsWith('SHARE:') || asset === 'INR') return amount.includes('.') ? '1' : amount;
    return amount;
  }
}
