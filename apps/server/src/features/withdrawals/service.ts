// Withdrawals by bank, PIX and crypto: the rules at request, the life cycle (withdrawal_transitions), the
// customer's views and the finance desk's review.
// Holds: a refused request changes nothing; the amount is HELD in the engine at request (hold_funds,
// cause withdrawal, link withdrawal:<id>, hold id = that link); every state change is a compare-and-set
// with its step in the append-only history; an approval writes the payout outbox row in its own
// transaction (payouts.ts pays it); a rejection or cancellation is recorded first, then its hold voided
// (Payouts.recover voids any a crash left held). Staff decisions are audited in the same transaction.
// Must not: move money except by engine commands; call a rail (the outbox does).

import type {
  BankWithdrawBody,
  CoinWithdrawBody,
  WITHDRAWAL_DESK_VIEWS,
  WithdrawalDeskItem,
  WithdrawalRail,
  WithdrawalState,
  WithdrawalView,
  WithdrawConfigView,
} from '@bourse/contract';
import type { Db } from '@bourse/db';
import type { ApplyResult } from '@bourse/engine';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { networkOf } from '../../platform/crypto-networks.ts';
import type { UserRow } from '../accounts/repo.ts';
import type { Accounts } from '../accounts/service.ts';
import * as bankRepo from '../bank-accounts/repo.ts';
import { appendAudit } from '../staff/audit.ts';
import { withdrawalsLockedUntil } from './lock.ts';
import { payoutKey } from './payout-rail.ts';
import * as repo from './repo.ts';
import type { RailTerms, WithdrawTerms } from './terms.ts';

/** The engine ids of a withdrawal's money steps, all derived from its id. */
export const holdIdOf = (id: number) => `withdrawal:${id}`;
export const postIdOf = (id: number) => `withdrawal:${id}:paid`;
export const voidIdOf = (id: number) => `withdrawal:${id}:void`;

/** Steps whose reason the customer reads (an approval's note is the staff's own). */
const CUSTOMER_REASONS: readonly WithdrawalState[] = ['rejected', 'failed', 'cancelled'];

/** States in which the money is back with the customer (the hold voided). */
export const REFUNDED_STATES: readonly WithdrawalState[] = ['rejected', 'cancelled', 'failed'];

const DESK_STATES: Record<(typeof WITHDRAWAL_DESK_VIEWS)[number], readonly WithdrawalState[]> = {
  review: ['reviewing'],
  paying: ['approved', 'paying'],
  failed: ['failed'],
  done: ['paid', 'rejected', 'cancelled'],
};

type Request = {
  rail: WithdrawalRail;
  terms: RailTerms;
  amount: string;
  requestId: string | undefined;
  body: string;
  bankAccountId: number | null;
  addressId: number | null;
  destination: string;
  payoutTo: string;
};

export class Withdrawals {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #clock: Clock;
  readonly #accounts: Accounts;
  readonly #terms: WithdrawTerms;
  readonly #mode: 'paper' | 'live';
  /** Tells the payout job there is work (it also runs on its own timer). */
  onApproved: () => void = () => {};
  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    clock: Clock;
    accounts: Accounts;
    terms: WithdrawTerms;
    mode: 'paper' | 'live';
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#clock = deps.clock;
    this.#accounts = deps.accounts;
    this.#terms = deps.terms;
    this.#mode = deps.mode;
  }

  /** The fee preview and limits of every rail, the lock, and what the customer still has to set up. */
  async config(user: UserRow): Promise<WithdrawConfigView> {
    return {
      terms: this.#terms.all().map((t) => ({
        rail: t.rail,
        asset: t.asset,
        network: t.network,
        networkName: t.network ? (networkOf(t.network)?.name[this.#mode] ?? t.network) : null,
        min: t.min,
        max: t.max,
        fee: t.fee,
        reviewAbove: t.reviewAbove,
        open: this.#terms.isOpen(t),
        available: this.#fmt(this.#engine.state.balance(String(user.id), t.wallet, t.asset).available, t.asset),
      })),
      withdrawalsLockedUntil: await withdrawalsLockedUntil(this.#db, user.id, this.#clock.now()),
      withdrawPasswordSet: user.withdraw_pin_hash !== null,
      kycStatus: user.id_status,
    };
  }

  /** /user/withdraw/add: by bank transfer or PIX to one of the customer's bank accounts. */
  async requestBank(user: UserRow, input: BankWithdrawBody): Promise<WithdrawalView> {
    const rail = input.method;
    const terms = this.#terms.find(rail, input.currency, null);
    await this.#checkCustomer(user, rail, input.currency, input.password);
    const retry = await this.#retry(user, input.requestId, bodyOf(input));
    if (retry) return retry;
    await this.#checkLock(user);
    const account = await bankRepo.findLive(this.#db, user.id, input.bankId);
    if (!account) throw fieldError('bankId', 'bank_account_not_found');
    // INR leaves by Indian bank transfer; BRL by Brazilian transfer or PIX (PIX needs the account's key).
    if (!terms || (account.country === 'IN') !== (input.currency === 'INR') || (rail === 'pix' && !account.pix_key))
      throw fieldError('currency', 'withdraw_currency_mismatch');
    const masked = `•••• ${account.account_number.slice(-4)}`;
    const destination =
      rail === 'pix' ? `PIX ${account.pix_key} · ${account.bank_name}` : `${account.bank_name} ${masked}`;
    const payoutTo = JSON.stringify(
      rail === 'pix'
        ? { pixKey: account.pix_key, holderName: account.holder_name, taxId: account.tax_id }
        : {
            country: account.country,
            holderName: account.holder_name,
            bankName: account.bank_name,
            accountNumber: account.account_number,
            ifsc: account.ifsc,
            branch: account.branch,
            taxId: account.tax_id,
          },
    );
    return this.#request(user, {
      rail,
      terms,
      amount: input.amount,
      requestId: input.requestId,
      body: bodyOf(input),
      bankAccountId: account.id,
      addressId: null,
      destination,
      payoutTo,
    });
  }

  /** /coin/withdraw/add: to an address from the customer's address book. */
  async requestCrypto(user: UserRow, input: CoinWithdrawBody): Promise<WithdrawalView> {
    const terms = this.#terms.find('crypto', input.asset, input.network);
    await this.#checkCustomer(user, 'crypto', input.asset, input.password);
    const retry = await this.#retry(user, input.requestId, bodyOf(input));
    if (retry) return retry;
    if (!terms) throw fieldError('network', 'withdraw_network_unsupported');
    await this.#checkLock(user);
    const address = await repo.findLiveAddress(this.#db, user.id, input.addressId);
    if (!address) throw fieldError('addressId', 'withdraw_address_not_found');
    if (address.asset !== terms.asset || address.network !== terms.network)
      throw fieldError('addressId', 'withdraw_network_unsupported');
    return this.#request(user, {
      rail: 'crypto',
      terms,
      amount: input.amount,
      requestId: input.requestId,
      body: bodyOf(input),
      bankAccountId: null,
      addressId: address.id,
      destination: address.label ? `${address.label} · ${address.address}` : address.address,
      payoutTo: JSON.stringify({ network: address.network, address: address.address }),
    });
  }

  /** Rail open, KYC verified, withdrawal password set and right: asked in this order, before anything else. */
  async #checkCustomer(user: UserRow, rail: WithdrawalRail, asset: string, pin: string) {
    if (!this.#terms.isOpen({ rail, asset })) throw new AppError('withdrawals_closed');
    if (user.id_status !== 'succ') throw new AppError('kyc_required');
    await this.#accounts.checkPin(user, 'withdraw', pin);
  }

  async #checkLock(user: UserRow) {
    const until = await withdrawalsLockedUntil(this.#db, user.id, this.#clock.now());
    if (until)
      throw new AppError('withdrawals_locked', undefined, (lang) => ({
        date:
          new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(until) +
          ' UTC',
      }));
  }

  /** A request key used before: the same body answers that withdrawal; another body is refused. */
  async #retry(user: UserRow, key: string | undefined, body: string): Promise<WithdrawalView | undefined> {
    if (!key) return undefined;
    const earlier = await repo.findByRequestKey(this.#db, user.id, key);
    if (!earlier) return undefined;
    if (earlier.request_body !== body) throw new AppError('idempotency_key_reused');
    if (earlier.status === 'requested') throw new AppError('idempotency_in_flight');
    return this.#view(earlier);
  }

  async #request(user: UserRow, r: Request): Promise<WithdrawalView> {
    const { terms } = r;
    const scale = this.#engine.state.asset(terms.asset)?.scale;
    if (scale === undefined) throw new AppError('unknown_asset');
    const parsed = tryParseDecimal(r.amount, scale);
    if (!parsed.ok || parsed.minor <= 0n) throw fieldError('amount', 'withdraw_amount_invalid');
    const minor = parsed.minor;
    const min = this.#minor(terms.min, terms.asset);
    const max = this.#minor(terms.max, terms.asset);
    const fee = this.#minor(terms.fee, terms.asset);
    // The minimum is above the fee, so what arrives is always positive.
    if (minor < min || minor <= fee)
      throw fieldError('amount', 'withdraw_below_minimum', () => ({ min: `${terms.min} ${terms.asset}` }));
    if (minor > max)
      throw fieldError('amount', 'withdraw_above_maximum', () => ({ max: `${terms.max} ${terms.asset}` }));
    const owner = String(user.id);
    if (this.#engine.state.balance(owner, terms.wallet, terms.asset).available < minor)
      throw fieldError('amount', 'insufficient_balance');

    const now = this.#clock.now();
    let id: number;
    try {
      id = await repo.insertWithdrawal(this.#db, {
        user_id: user.id,
        rail: r.rail,
        asset: terms.asset,
        network: terms.network,
        wallet: terms.wallet,
        amount: this.#fmt(minor, terms.asset),
        fee: this.#fmt(fee, terms.asset),
        bank_account_id: r.bankAccountId,
        address_id: r.addressId,
        destination: r.destination,
        payout_to: r.payoutTo,
        request_key: r.requestId ?? null,
        request_body: r.body,
        created_at: now,
      });
    } catch (error) {
      // Two requests with one key at once: the unique index let one in; the other answers like a retry.
      const retry = await this.#retry(user, r.requestId, r.body);
      if (retry) return retry;
      throw error;
    }
    const held = await this.#engine.submit({
      type: 'hold_funds',
      id: holdIdOf(id),
      userId: owner,
      wallet: terms.wallet,
      asset: terms.asset,
      amount: this.#fmt(minor, terms.asset),
      cause: 'withdrawal',
      link: holdIdOf(id),
    });
    if (!held.ok) {
      // Spent between the check and the hold: nothing was held, so nothing of the request is kept.
      await repo.deleteRequested(this.#db, id);
      throw held.code === 'insufficient_balance'
        ? fieldError('amount', 'insufficient_balance')
        : new AppError('internal_error');
    }
    await this.advanceRequested(id);
    return this.#view((await repo.findWithdrawal(this.#db, id))!);
  }

  /**
   * requested → reviewing, and on to approved (with its payout due) when at or below the review
   * threshold: one transaction. Also how Payouts.recover finishes a request a crash interrupted.
   */
  async advanceRequested(id: number): Promise<void> {
    const approved = await this.#db.transaction(async (tx) => {
      const w = await repo.findWithdrawal(tx, id);
      if (w?.status !== 'requested') return false;
      const at = this.#clock.now();
      await repo.recordStep(tx, id, null, 'requested', w.created_at, '', null);
      await repo.setStatus(tx, id, 'requested', 'reviewing', at);
      const terms = this.#terms.find(w.rail, w.asset, w.network);
      const threshold = terms ? this.#minor(terms.reviewAbove, w.asset) : -1n;
      if (this.#minor(w.amount, w.asset) > threshold) return false;
      await repo.setStatus(tx, id, 'reviewing', 'approved', at, { reason: 'auto_approved' });
      await repo.enqueuePayout(tx, id, payoutKey(id), w.rail, at);
      return true;
    });
    if (approved) this.onApproved();
  }

  async list(user: UserRow, crypto: boolean, page: number, limit: number) {
    const { rows, total } = await repo.listForUser(this.#db, user.id, crypto, limit, (page - 1) * limit);
    return { items: await this.#views(rows), total };
  }

  /** One of the customer's withdrawals; another customer's answers not found. */
  async status(user: UserRow, id: number, crypto?: boolean): Promise<WithdrawalView> {
    const w = await repo.findWithdrawal(this.#db, id);
    if (
      !w ||
      w.user_id !== user.id ||
      w.status === 'requested' ||
      (crypto !== undefined && (w.rail === 'crypto') !== crypto)
    )
      throw new AppError('withdrawal_not_found');
    return this.#view(w);
  }

  /** The customer cancels while it is under review: recorded, then the hold voided (the money back). */
  async cancel(user: UserRow, id: number): Promise<WithdrawalView> {
    const w = await repo.findWithdrawal(this.#db, id);
    if (!w || w.user_id !== user.id || w.status === 'requested') throw new AppError('withdrawal_not_found');
    const moved = await this.#db.transaction((tx) =>
      repo.setStatus(tx, id, 'reviewing', 'cancelled', this.#clock.now(), { reason: 'cancelled_by_customer' }),
    );
    if (!moved) throw new AppError('withdrawal_not_cancellable');
    await this.releaseHold(id);
    return this.#view((await repo.findWithdrawal(this.#db, id))!);
  }

  /** Gives the held amount back (void_hold), unless it is already back: safe to call again. */
  async releaseHold(id: number): Promise<void> {
    if (!this.#engine.state.fundsHold(holdIdOf(id))) return;
    const result: ApplyResult = await this.#engine.submit({
      type: 'void_hold',
      id: voidIdOf(id),
      holdId: holdIdOf(id),
    });
    if (!result.ok && result.code !== 'hold_not_found') throw new Error(`void of withdrawal ${id}: ${result.code}`);
  }

  // --- the finance desk ---

  async desk(view: (typeof WITHDRAWAL_DESK_VIEWS)[number]): Promise<WithdrawalDeskItem[]> {
    const rows = await repo.listByStatus(this.#db, DESK_STATES[view]);
    const people = await repo.customers(this.#db, [...new Set(rows.map((r) => r.user_id))]);
    const views = await this.#views(rows, true);
    return views.map((v, i) => {
      const who = people.get(rows[i]!.user_id);
      return {
        ...v,
        userId: rows[i]!.user_id,
        account: who?.phone ?? '',
        kycStatus: who?.id_status ?? 'none',
        accountCreatedAt: who?.created_at ?? 0,
        payee: payeeOf(rows[i]!.payout_to),
      };
    });
  }

  /** Approve (the payout becomes due) or reject (the money goes back), with the reason audited. */
  async decide(staffId: number, id: number, decision: 'approve' | 'reject', reason: string): Promise<void> {
    const to = decision === 'approve' ? 'approved' : 'rejected';
    const at = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      const w = await repo.findWithdrawal(tx, id);
      if (!w || w.status === 'requested') throw new AppError('withdrawal_not_found');
      if (!(await repo.transitionAllowed(tx, w.status, to))) throw new AppError('withdrawal_already_decided');
      if (!(await repo.setStatus(tx, id, w.status, to, at, { reason, staffId })))
        throw new AppError('withdrawal_already_decided');
      if (to === 'approved') await repo.enqueuePayout(tx, id, payoutKey(id), w.rail, at);
      await appendAudit(
        tx,
        {
          staffId,
          action: `withdrawals.${decision}`,
          targetType: 'withdrawal',
          targetId: String(id),
          reason,
          detail: { userId: w.user_id, asset: w.asset, amount: w.amount, fee: w.fee, rail: w.rail },
        },
        at,
      );
    });
    if (to === 'rejected') await this.releaseHold(id);
    else this.onApproved();
  }

  // --- views ---

  async #view(w: repo.WithdrawalRow): Promise<WithdrawalView> {
    return (await this.#views([w]))[0]!;
  }

  /** Staff see every step's reason; the customer sees why it was refused, failed or cancelled. */
  async #views(rows: readonly repo.WithdrawalRow[], forStaff = false): Promise<WithdrawalView[]> {
    const history = await repo.historyOf(
      this.#db,
      rows.map((r) => r.id),
    );
    return rows.map((w) => ({
      id: w.id,
      rail: w.rail,
      asset: w.asset,
      network: w.network,
      amount: w.amount,
      fee: w.fee,
      receive: this.receiveOf(w),
      status: w.status,
      reason: w.status === 'rejected' || w.status === 'failed' ? w.reason : '',
      destination: w.destination,
      bankAccountId: w.bank_account_id,
      addressId: w.address_id,
      payoutRef: w.payout_ref,
      createdAt: w.created_at,
      updatedAt: w.updated_at,
      history: (history.get(w.id) ?? []).map((s) => ({
        status: s.to_status,
        at: s.at,
        reason: forStaff || CUSTOMER_REASONS.includes(s.to_status) || s.reason === 'auto_approved' ? s.reason : '',
      })),
      cancellable: w.status === 'reviewing',
    }));
  }

  /** What arrives: the amount less the fee. */
  receiveOf(w: Pick<repo.WithdrawalRow, 'amount' | 'fee' | 'asset'>): string {
    return this.#fmt(this.#minor(w.amount, w.asset) - this.#minor(w.fee, w.asset), w.asset);
  }

  #fmt(minor: bigint, asset: string): string {
    return formatDecimal(minor, this.#engine.state.asset(asset)?.scale ?? 0);
  }

  #minor(decimal: string, asset: string): bigint {
    const parsed = tryParseDecimal(decimal, this.#engine.state.asset(asset)?.scale ?? 0);
    if (!parsed.ok) throw new Error(`withdrawal terms: bad amount ${decimal} for ${asset}`);
    return parsed.minor;
  }
}

/** What a retry must repeat: the request without its password. */
function bodyOf(input: Record<string, unknown>): string {
  const { password: _password, requestId: _requestId, ...rest } = input;
  return JSON.stringify(
    Object.keys(rest)
      .sort()
      .map((k) => [k, String(rest[k])]),
  );
}

/** The payout's destination in full, for the finance desk (the customer's views mask the account). */
function payeeOf(payoutTo: string): string {
  const to = JSON.parse(payoutTo) as Record<string, string | null | undefined>;
  if (to.address) return `${to.network} ${to.address}`;
  if (to.pixKey) return `${to.holderName ?? ''} · PIX ${to.pixKey} · ${to.taxId ?? ''}`;
  const code = to.ifsc ? `IFSC ${to.ifsc}` : `${to.branch ?? ''}`;
  return `${to.holderName ?? ''} · ${to.bankName ?? ''} ${to.accountNumber ?? ''} · ${code}${to.taxId ? ` · ${to.taxId}` : ''}`;
}
