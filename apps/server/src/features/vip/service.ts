// VIP membership (issue 28 item 3, decision 0038): a free trial once per customer, then paid periods of 30,
// 90 or 180 days at the deployment's price per 30 days (VIP_PRICES) in a currency it sells in, paid from
// the customer's stock-wallet cash by an engine hold and post to the platform's `fees` account (cause
// `fee`, link `vip-period:<id>`). Buying while a period runs extends from its end (renewal). Membership
// is derived from the periods; vip_membership_transitions says which period may follow which state.
// `entitlement` is the ONE check other lines ask (block trades' eligibility, the advice posts; options,
// US stocks and short-term trades are to call it). Staff switch the VIP stock strategy per customer and
// publish trading-advice posts (educational), each audited.
// Must hold: nothing moves on a refusal; a period is active only once its transfer posted; the trial is
// granted once per customer (unique index). Must not: promise returns; gate anything not listed in
// VIP_REQUIRED_FOR for non-members.

import type {
  Lang,
  StaffVipAdviceView,
  StaffVipMemberView,
  VipAdviceInput,
  VipAdviceView,
  VipFeature,
  VipPeriodView,
  VipPlan,
  VipQuoteView,
  VipState,
  VipStatusView,
} from '@bourse/contract';
import { VIP_FEATURES, VIP_PLANS } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { appendAudit } from '../staff/audit.ts';
import * as repo from './repo.ts';
import type { VipSettings } from './settings.ts';

const DAY_MS = 86_400_000;
/** The platform account membership fees are paid into (the platform's revenue, with trading fees). */
export const VIP_REVENUE_ACCOUNT = 'fees';
export const vipPeriodLink = (id: number) => `vip-period:${id}`;
const holdIdOf = (id: number) => `vip-period:${id}:hold`;

const MARKET_CURRENCY = { IN: 'INR', US: 'USD', BR: 'BRL' } as const;

export type Entitlement = {
  feature: VipFeature;
  /** An active member (a trial or paid period covers now). */
  member: boolean;
  /** Membership gives this customer the feature (strategy: also switched on by staff). */
  granted: boolean;
  /** The deployment lets only members use it. */
  required: boolean;
  /** What the caller acts on: granted, or not required. */
  allowed: boolean;
};

/** The membership the active periods make at `now` (pending and void periods count for nothing). */
export function membershipOf(periods: readonly repo.PeriodRow[], now: number) {
  const active = periods.filter((p) => p.status === 'active');
  const covering = active.find((p) => p.starts_at <= now && now < p.ends_at);
  const paidAhead = active.some((p) => p.kind === 'paid' && p.ends_at > now);
  const state: VipState = covering ? (paidAhead ? 'member' : 'trial') : active.length > 0 ? 'lapsed' : 'none';
  const expiresAt = active.length > 0 ? Math.max(...active.map((p) => p.ends_at)) : null;
  return { state, member: covering !== undefined, covering, expiresAt };
}

export class Vip {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #clock: Clock;
  readonly #settings: VipSettings;
  readonly #currency: string;
  /** One purchase or claim per customer at a time (the start of a renewal reads the periods before it). */
  readonly #busy = new Map<number, Promise<unknown>>();

  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    clock: Clock;
    settings: VipSettings;
    stockCountry: 'IN' | 'US' | 'BR';
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#clock = deps.clock;
    this.#settings = deps.settings;
    this.#currency = MARKET_CURRENCY[deps.stockCountry];
  }

  // --- the entitlement check ----------------------------------------------------------------------------

  /** The one check: may `userId` use `feature` now, and why. */
  async entitlement(userId: number, feature: VipFeature): Promise<Entitlement> {
    const { member } = membershipOf(await repo.periodsOf(this.#db, userId), this.#clock.now());
    const granted = member && (feature !== 'strategy' || (await repo.strategyEnabled(this.#db, userId)));
    // The strategy is a members' feature by definition; the rest only where the deployment says so.
    const required = feature === 'strategy' || this.#settings.requiredFor.has(feature);
    return { feature, member, granted, required, allowed: granted || !required };
  }

  async entitled(userId: number, feature: VipFeature): Promise<boolean> {
    return (await this.entitlement(userId, feature)).allowed;
  }

  /** Refuses with vip_required when the customer may not use `feature`. */
  async require(userId: number, feature: VipFeature): Promise<void> {
    if (!(await this.entitled(userId, feature))) throw new AppError('vip_required');
  }

  // --- customers --------------------------------------------------------------------------------------

  async status(userId: number): Promise<VipStatusView> {
    // In the customer's turn: a purchase between its pending row and its hold must not be seen as
    // "the money never moved" and voided under it (the hold would then be posted to a void period).
    await this.#one(userId, () => this.#settlePending(userId));
    const periods = await repo.periodsOf(this.#db, userId);
    const now = this.#clock.now();
    const m = membershipOf(periods, now);
    const strategy = await repo.strategyEnabled(this.#db, userId);
    const features = VIP_FEATURES.map((feature) => {
      const granted = m.member && (feature !== 'strategy' || strategy);
      const membersOnly = feature === 'strategy' || this.#settings.requiredFor.has(feature);
      return { feature, membersOnly, entitled: granted || !membersOnly };
    });
    return {
      state: m.state,
      member: m.member,
      trialDays: this.#settings.trialDays,
      trialAvailable: this.#settings.trialDays > 0 && !periods.some((p) => p.kind === 'trial'),
      current: m.covering ? this.#periodView(m.covering) : null,
      expiresAt: m.expiresAt,
      currency: this.#currency,
      plans: VIP_PLANS.map((plan) => ({
        plan,
        days: Number(plan),
        prices: this.#currencies().flatMap((currency) => {
          const minor = this.#priceMinor(plan, currency);
          return minor === undefined ? [] : [{ currency, amount: this.#format(minor, currency) }];
        }),
      })),
      features,
      strategyEnabled: strategy,
      periods: periods.filter((p) => p.status !== 'void').map((p) => this.#periodView(p)),
    };
  }

  /** The free trial ("received VIP"): once per customer, starting now. */
  async claimTrial(userId: number): Promise<VipStatusView> {
    if (this.#settings.trialDays <= 0) throw new AppError('vip_trial_not_offered');
    await this.#one(userId, async () => {
      const now = this.#clock.now();
      try {
        await this.#db.transaction(async (tx) => {
          const periods = await repo.periodsOf(tx, userId);
          const { state } = membershipOf(periods, now);
          // Only from 'none' (vip_membership_transitions); a void paid period leaves the state 'none', so
          // the row check below stays: the trial is once per customer whatever came before.
          if (!(await repo.membershipAllows(tx, state, 'trial')) || periods.some((p) => p.kind === 'trial'))
            throw new AppError('vip_trial_used');
          await repo.insertPeriod(tx, {
            user_id: userId,
            kind: 'trial',
            status: 'active',
            days: this.#settings.trialDays,
            starts_at: now,
            ends_at: now + this.#settings.trialDays * DAY_MS,
            amount: null,
            currency: null,
            client_key: null,
            created_at: now,
          });
        });
      } catch (error) {
        if (error instanceof AppError) throw error;
        // The unique index (one trial per customer) refused a second claim racing this one.
        if ((await repo.periodsOf(this.#db, userId)).some((p) => p.kind === 'trial'))
          throw new AppError('vip_trial_used');
        throw error;
      }
    });
    return this.status(userId);
  }

  /** What buying `plan` now would cost and cover; nothing is written. */
  async quote(userId: number, input: { plan: VipPlan; currency?: string | undefined }): Promise<VipQuoteView> {
    const currency = input.currency ?? this.#currency;
    const minor = this.#priceMinor(input.plan, currency);
    if (minor === undefined) throw fieldError('currency', 'vip_currency_not_sold');
    const now = this.#clock.now();
    const ends = (await repo.periodsOf(this.#db, userId)).filter((p) => p.status !== 'void').map((p) => p.ends_at);
    const startsAt = Math.max(now, ...ends);
    const days = Number(input.plan);
    return {
      plan: input.plan,
      days,
      currency,
      amount: this.#format(minor, currency),
      available: this.#format(this.#engine.state.balance(String(userId), 'stock', currency).available, currency),
      startsAt,
      endsAt: startsAt + days * DAY_MS,
    };
  }

  /**
   * Buys `plan` (the caller checked the transaction password): a pending period row, then the money
   * (hold the price, post it to the platform's fees account), then the period is active. A period bought
   * while one runs starts at the membership's end. With `clientKey`, a retry answers the first purchase.
   */
  async buy(
    userId: number,
    input: { plan: VipPlan; currency?: string | undefined },
    clientKey?: string,
  ): Promise<{ period: VipPeriodView; status: VipStatusView }> {
    const currency = input.currency ?? this.#currency;
    const minor = this.#priceMinor(input.plan, currency);
    if (minor === undefined) throw fieldError('currency', 'vip_currency_not_sold');
    const period = await this.#one(userId, async () => {
      if (clientKey) {
        const first = await repo.periodByKey(this.#db, userId, clientKey);
        if (first) {
          if (first.amount !== this.#format(minor, currency) || Number(first.days) !== Number(input.plan))
            throw new AppError('idempotency_key_reused');
          await this.#settle(first);
          const now = await repo.period(this.#db, first.id);
          if (now?.status === 'active') return now;
          if (now?.status === 'void') throw new AppError('insufficient_balance');
        }
      }
      await this.#settlePending(userId);
      // Short funds are refused before any row or command: nothing is written for a refusal, and the
      // engine (which remembers a refused command's id) is not asked.
      if (this.#engine.state.balance(String(userId), 'stock', currency).available < minor)
        throw new AppError('insufficient_balance');
      const now = this.#clock.now();
      const days = Number(input.plan);
      const id = await this.#db.transaction(async (tx) => {
        const periods = await repo.periodsOf(tx, userId);
        const { state } = membershipOf(periods, now);
        if (!(await repo.membershipAllows(tx, state, 'paid'))) throw new AppError('vip_plan_unknown');
        // Renewal: from the end of every period still counting (active or being paid), else from now.
        const ends = periods.filter((p) => p.status !== 'void').map((p) => p.ends_at);
        const startsAt = Math.max(now, ...ends);
        return repo.insertPeriod(tx, {
          user_id: userId,
          kind: 'paid',
          status: 'pending',
          days,
          starts_at: startsAt,
          ends_at: startsAt + days * DAY_MS,
          amount: this.#format(minor, currency),
          currency,
          client_key: clientKey ?? null,
          created_at: now,
        });
      });
      const row = (await repo.period(this.#db, id)) as repo.PeriodRow;
      const held = await this.#engine.submit({
        type: 'hold_funds',
        id: holdIdOf(id),
        userId: String(userId),
        wallet: 'stock',
        asset: currency,
        amount: row.amount as string,
        cause: 'fee',
        link: vipPeriodLink(id),
      });
      if (!held.ok) {
        await repo.movePeriod(this.#db, id, 'pending', 'void', { at: this.#clock.now(), transferId: null });
        throw new AppError(held.code);
      }
      await this.#settle(row);
      const settled = (await repo.period(this.#db, id)) as repo.PeriodRow;
      if (settled.status !== 'active') throw new Error(`vip period ${id} did not settle`);
      return settled;
    });
    return { period: this.#periodView(period), status: await this.status(userId) };
  }

  /**
   * What the funds records show beside a membership payment (its cause is `fee`): "VIP (30d)" for each of
   * this customer's periods among `links` (vip-period:<id>); language-neutral, as the other notes are.
   */
  async notes(userId: number, links: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const wanted = new Set(links.filter((l) => /^vip-period:\d{1,15}$/.test(l)));
    if (wanted.size === 0) return new Map();
    const periods = await repo.periodsOf(this.#db, userId);
    return new Map(
      periods.filter((p) => wanted.has(vipPeriodLink(p.id))).map((p) => [vipPeriodLink(p.id), `VIP (${p.days}d)`]),
    );
  }

  /** Trading-advice posts, for those the entitlement check lets read them (members, by default). */
  async advice(userId: number, lang: Lang): Promise<VipAdviceView[]> {
    await this.require(userId, 'advice');
    const pt = lang === 'pt-BR';
    return (await repo.adviceList(this.#db, false)).map((a) => ({
      id: a.id,
      title: pt ? a.title_pt : a.title_en,
      body: pt ? a.body_pt : a.body_en,
      publishedAt: a.created_at,
      author: a.author,
    }));
  }

  /** At start-up: settles every paid period a crash left pending. */
  async recover(): Promise<void> {
    for (const row of await repo.pendingPeriods(this.#db)) await this.#one(row.user_id, () => this.#settle(row));
  }

  // --- staff ------------------------------------------------------------------------------------------

  async members(limit = 200): Promise<StaffVipMemberView[]> {
    const ids = await repo.memberIds(this.#db, limit);
    const now = this.#clock.now();
    return Promise.all(
      ids.map(async (userId) => {
        const periods = await repo.periodsOf(this.#db, userId);
        const m = membershipOf(periods, now);
        return {
          userId,
          phone: (await repo.userPhone(this.#db, userId)) ?? '',
          state: m.state,
          expiresAt: m.expiresAt,
          strategyEnabled: await repo.strategyEnabled(this.#db, userId),
          periods: periods.map((p) => this.#periodView(p)),
        };
      }),
    );
  }

  /** Customer service switches the VIP stock strategy for a customer, with a reason (audited). */
  async setStrategy(staffId: number, userId: number, enabled: boolean, reason: string): Promise<void> {
    const at = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      if ((await repo.userPhone(tx, userId)) === undefined) throw new AppError('vip_customer_not_found');
      await repo.setStrategy(tx, { userId, enabled, staffId, reason, at });
      await appendAudit(
        tx,
        {
          staffId,
          action: enabled ? 'vip.strategy_enable' : 'vip.strategy_disable',
          targetType: 'user',
          targetId: String(userId),
          reason,
          detail: { enabled },
        },
        at,
      );
    });
  }

  async staffAdvice(): Promise<StaffVipAdviceView[]> {
    return (await repo.adviceList(this.#db, true)).map((a) => ({
      id: a.id,
      titleEn: a.title_en,
      titlePt: a.title_pt,
      bodyEn: a.body_en,
      bodyPt: a.body_pt,
      publishedAt: a.created_at,
      author: a.author,
      withdrawnAt: a.withdrawn_at,
    }));
  }

  async publishAdvice(staffId: number, input: VipAdviceInput): Promise<number> {
    const at = this.#clock.now();
    return this.#db.transaction(async (tx) => {
      const id = await repo.insertAdvice(tx, { ...input, staffId, at });
      await appendAudit(
        tx,
        {
          staffId,
          action: 'vip.advice_publish',
          targetType: 'vip_advice',
          targetId: String(id),
          reason: input.reason,
          detail: { titleEn: input.titleEn, titlePt: input.titlePt },
        },
        at,
      );
      return id;
    });
  }

  async withdrawAdvice(staffId: number, id: number, reason: string): Promise<void> {
    const at = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      if (!(await repo.withdrawAdvice(tx, id, at))) throw new AppError('vip_advice_not_found');
      await appendAudit(
        tx,
        { staffId, action: 'vip.advice_withdraw', targetType: 'vip_advice', targetId: String(id), reason, detail: {} },
        at,
      );
    });
  }

  // --- helpers ----------------------------------------------------------------------------------------

  /** Runs `work` after any earlier claim or purchase of the same customer has finished. */
  async #one<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const before = this.#busy.get(userId) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(work);
    this.#busy.set(userId, run);
    try {
      return await run;
    } finally {
      if (this.#busy.get(userId) === run) this.#busy.delete(userId);
    }
  }

  async #settlePending(userId: number): Promise<void> {
    for (const row of await repo.pendingPeriods(this.#db, userId)) await this.#settle(row);
  }

  /**
   * Finishes a pending period from what the engine holds: its transfer posted → active; its hold there →
   * post it, then active; neither → the money never moved (a crash before the hold, or a refusal): void.
   * Callers hold the customer's turn (#one), so no hold of this period is in flight.
   */
  async #settle(given: repo.PeriodRow): Promise<void> {
    // The row as it is now (the caller's copy may be older than a settle that ran meanwhile).
    const row = (await repo.period(this.#db, given.id)) ?? given;
    if (row.status === 'void') {
      // A void period keeps no money: a hold that landed after it was voided is released.
      if (this.#engine.state.fundsHold(holdIdOf(row.id)) !== undefined) {
        const released = await this.#engine.submit({
          type: 'void_hold',
          id: `${holdIdOf(row.id)}:release`,
          holdId: holdIdOf(row.id),
        });
        if (!released.ok && released.code !== 'hold_not_found') throw new AppError(released.code);
      }
      return;
    }
    if (row.status !== 'pending') return;
    const transferId = vipPeriodLink(row.id);
    if (!this.#engine.state.transferPosted(transferId)) {
      if (this.#engine.state.fundsHold(holdIdOf(row.id)) === undefined) {
        await repo.movePeriod(this.#db, row.id, 'pending', 'void', { at: this.#clock.now(), transferId: null });
        return;
      }
      const posted = await this.#engine.submit({
        type: 'post_hold',
        id: transferId,
        holdId: holdIdOf(row.id),
        to: VIP_REVENUE_ACCOUNT,
      });
      if (!posted.ok) throw new AppError(posted.code);
    }
    await repo.movePeriod(this.#db, row.id, 'pending', 'active', { at: this.#clock.now(), transferId });
  }

  #currencies(): string[] {
    const all = Object.keys(this.#settings.pricePer30Days);
    // The market's currency first, as the page shows it first.
    return [...all.filter((c) => c === this.#currency), ...all.filter((c) => c !== this.#currency)];
  }

  /** The plan's price in `currency`'s minor units: the price of 30 days × days / 30 (plans are multiples). */
  #priceMinor(plan: VipPlan, currency: string): bigint | undefined {
    const per30 = this.#settings.pricePer30Days[currency];
    const scale = this.#engine.state.asset(currency)?.scale;
    if (per30 === undefined || scale === undefined) return undefined;
    const parsed = tryParseDecimal(per30, scale);
    if (!parsed.ok || parsed.minor <= 0n) return undefined;
    return (parsed.minor * BigInt(Number(plan))) / 30n;
  }

  #format(minor: bigint, currency: string): string {
    return formatDecimal(minor, this.#engine.state.asset(currency)?.scale ?? 2);
  }

  #periodView(p: repo.PeriodRow): VipPeriodView {
    return {
      id: p.id,
      kind: p.kind,
      status: p.status,
      days: p.days,
      startsAt: p.starts_at,
      endsAt: p.ends_at,
      amount: p.amount,
      currency: p.currency,
      transferId: p.transfer_id,
      createdAt: p.created_at,
    };
  }
}
