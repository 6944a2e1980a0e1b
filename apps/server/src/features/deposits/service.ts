// Fiat deposits: the rails open per currency, a customer's deposit (bank or offline transfer with its
// reference and proof, or PIX with a dynamic BR Code), the finance desk's decision, the PIX provider's
// signed notification, and the one ledger credit per confirmed deposit.
// Holds: every state change is a row of deposit_history allowed by deposit_transitions; a confirmation
// credits exactly once, by ONE engine `deposit` command whose id is `deposit:<id>` (the engine answers a
// repeat with the first transfer), sent after the confirmation is committed and re-sent at start-up for
// any confirmed row not marked credited (decision 0018). Must not: change a balance any other way.

import { createHash, randomUUID } from 'node:crypto';
import type {
  AddDepositInput,
  DepositChannelView,
  DepositCurrency,
  DepositDetailView,
  DepositRail,
  DepositReviewItem,
  DepositStatus,
  DepositView,
  Lang,
} from '@bourse/contract';
import type { Db } from '@bourse/db';
import { canonicalJson } from '@bourse/engine';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import { createDynamicPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';
import type { PixProvider } from '../../adapters/payments/pix-port.ts';
import { parsePixNotification, verifyPixSignature } from '../../adapters/payments/pix-port.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { cleanPhoto } from '../kyc/images.ts';
import { appendAudit } from '../staff/audit.ts';
import * as repo from './repo.ts';
import type { DepositChannelSetting, DepositSettings } from './settings.ts';

/** Fiat cash for stocks lives in the `stock` wallet (as the paper grants and the stock orders use it). */
const DEPOSIT_WALLET = 'stock';
const REVIEW_PAGE = 200;

export type DepositsDeps = {
  db: Db;
  engine: TradingEngine;
  clock: Clock;
  settings: DepositSettings;
  /** The PIX provider; null closes the PIX rail. */
  pix: PixProvider | null;
  /** Paper mode: the sandbox provider, which can be told to pay a charge. */
  simulatePayment: ((txid: string, amount: string) => Promise<void>) | null;
  log: (message: string) => void;
};

type AddBody = Omit<AddDepositInput, 'requestId'> & { reference?: string | undefined };

export class Deposits {
  readonly #d: DepositsDeps;
  constructor(deps: DepositsDeps) {
    this.#d = deps;
  }

  #scale(currency: string): number {
    return this.#d.engine.state.asset(currency)?.scale ?? 2;
  }

  #fmt(minor: bigint, currency: string): string {
    return formatDecimal(minor, this.#scale(currency));
  }

  #hasRail(setting: DepositChannelSetting): boolean {
    if (setting.rail === 'pix') return this.#d.pix !== null;
    return this.#d.settings.accounts[setting.currency] !== undefined;
  }

  /** The maximum at `now`: PIX's night limit applies between its hours in its time zone. */
  #maxNow(setting: DepositChannelSetting, now: number): string {
    const night = setting.night;
    if (!night) return setting.max;
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: night.timeZone, hour: 'numeric', hourCycle: 'h23' }).format(now),
    );
    const isNight = hour >= night.fromHour || hour < night.toHour;
    if (!isNight) return setting.max;
    const scale = this.#scale(setting.currency);
    return parse(night.max, scale) < parse(setting.max, scale) ? night.max : setting.max;
  }

  #isOpen(setting: DepositChannelSetting): boolean {
    return this.#hasRail(setting) && !this.#d.settings.closed.includes(`${setting.currency}:${setting.rail}`);
  }

  channels(currency?: DepositCurrency): DepositChannelView[] {
    const now = this.#d.clock.now();
    return this.#d.settings.channels
      .filter((c) => !currency || c.currency === currency)
      .map((c) => ({
        currency: c.currency,
        rail: c.rail,
        minAmount: c.min,
        maxAmount: this.#maxNow(c, now),
        isOpen: this.#isOpen(c),
        account: c.rail === 'pix' ? null : (this.#d.settings.accounts[c.currency] ?? null),
        expiresInMin: c.rail === 'pix' ? this.#d.settings.pixExpiresInMin : null,
      }));
  }

  /**
   * Creates a deposit. With a requestId, a retry with the same body answers the first deposit and one
   * with another body is refused; every check runs before anything is written.
   */
  async add(userId: number, body: AddBody, requestId: string | undefined): Promise<DepositDetailView> {
    const requestBody = requestId === undefined ? null : fingerprint(body);
    if (requestId !== undefined) {
      const earlier = await repo.findByRequest(this.#d.db, userId, requestId);
      if (earlier) return this.#answerRetry(earlier, requestBody);
    }
    const setting = this.#d.settings.channels.find((c) => c.currency === body.currency && c.rail === body.rail);
    if (!setting) throw fieldError('rail', 'deposit_rail_unavailable');
    if (!this.#isOpen(setting)) throw new AppError('deposits_closed');
    const scale = this.#scale(body.currency);
    const parsed = tryParseDecimal(body.amount, scale);
    if (!parsed.ok || parsed.minor <= 0n) throw fieldError('amount', 'invalid_amount');
    const amountMinor = parsed.minor;
    const now = this.#d.clock.now();
    if (amountMinor < parse(setting.min, scale))
      throw fieldError('amount', 'deposit_below_minimum', (l) => ({ min: shown(setting.min, body.currency, l) }));
    const max = this.#maxNow(setting, now);
    if (amountMinor > parse(max, scale))
      throw fieldError('amount', 'deposit_above_maximum', (l) => ({ max: shown(max, body.currency, l) }));
    const amount = formatDecimal(amountMinor, scale);

    let proof: string | null = null;
    let reference = '';
    let pix: { txid: string; brCode: string; expiresAt: number } | null = null;
    if (body.rail === 'pix') {
      pix = await this.#createCharge(amount);
    } else {
      reference = body.reference ?? '';
      if (!reference) throw fieldError('reference', 'deposit_reference_required');
      if (!body.proof) throw fieldError('proof', 'deposit_proof_required');
      proof = (await cleanPhoto(body.proof)).toString('base64');
    }
    const status: DepositStatus = pix ? 'awaiting_payment' : 'pending';
    let id: number;
    try {
      id = await this.#d.db.transaction(async (tx) => {
        const newId = await repo.insert(tx, {
          userId,
          rail: body.rail,
          currency: body.currency,
          amountMinor,
          status,
          reference,
          proof,
          txid: pix?.txid ?? null,
          brCode: pix?.brCode ?? null,
          expiresAt: pix?.expiresAt ?? null,
          requestId: requestId ?? null,
          requestBody,
          at: now,
        });
        await repo.addHistory(tx, newId, 'new', status, now, { kind: 'customer', id: String(userId) }, '');
        return newId;
      });
    } catch (error) {
      // The same key committed by a request racing this one: answer as a retry of it.
      const raced = requestId === undefined ? undefined : await repo.findByRequest(this.#d.db, userId, requestId);
      if (raced) return this.#answerRetry(raced, requestBody);
      throw error;
    }
    return this.detail(userId, id);
  }

  async #answerRetry(earlier: repo.DepositRow, requestBody: string | null): Promise<DepositDetailView> {
    if (earlier.request_body !== requestBody) throw new AppError('idempotency_key_reused');
    return this.detail(earlier.user_id, earlier.id);
  }

  async #createCharge(amount: string): Promise<{ txid: string; brCode: string; expiresAt: number }> {
    const pix = this.#d.pix;
    if (!pix) throw new AppError('deposits_closed');
    // BCB's txid: 26 to 35 letters and digits; a UUID's 32 hex digits are unguessable and unique.
    const txid = randomUUID().replace(/-/g, '');
    const expiresInSec = this.#d.settings.pixExpiresInMin * 60;
    const charge = await pix.createCharge({ txid, amount, expiresInSec, description: 'Bourse deposit' });
    let brCode = charge.brCode;
    if (brCode === null) {
      const made = createDynamicPix({
        merchantName: this.#d.settings.pixMerchantName,
        merchantCity: this.#d.settings.pixMerchantCity,
        url: charge.location,
      });
      if (hasError(made)) throw new Error(`BR Code not made: ${made.message}`);
      brCode = made.toBRCode();
    }
    return { txid, brCode, expiresAt: this.#d.clock.now() + expiresInSec * 1000 };
  }

  async list(
    userId: number,
    q: { page: number; limit: number; status?: DepositStatus | undefined; rail?: readonly DepositRail[] | undefined },
  ): Promise<{ items: DepositView[]; total: number }> {
    await this.expireDue();
    const { rows, total } = await repo.listForUser(this.#d.db, userId, q, q.limit, (q.page - 1) * q.limit);
    return { items: rows.map((r) => this.#view(r)), total };
  }

  /** One deposit of `userId` (null: staff) with its history; another customer's answers not found. */
  async detail(userId: number | null, id: number): Promise<DepositDetailView> {
    await this.expireDue();
    const row = await repo.find(this.#d.db, id);
    if (!row || (userId !== null && row.user_id !== userId)) throw new AppError('deposit_not_found');
    const history = await repo.history(this.#d.db, id);
    return {
      ...this.#view(row),
      history: history.map((h) => ({
        from: h.from_status,
        to: h.to_status,
        at: h.at,
        actor: h.actor as 'customer' | 'staff' | 'provider' | 'system',
        reason: h.reason,
      })),
      pix: row.br_code
        ? {
            brCode: row.br_code,
            qrDataUrl: await QRCode.toDataURL(row.br_code, { errorCorrectionLevel: 'M', margin: 1, width: 240 }),
          }
        : null,
      canSimulate: this.#d.simulatePayment !== null && row.status === 'awaiting_payment',
    };
  }

  #view(r: repo.DepositRow): DepositView {
    return {
      id: r.id,
      rail: r.rail,
      currency: r.currency,
      amount: this.#fmt(r.amount_minor, r.currency),
      status: r.status,
      reference: r.reference,
      hasProof: r.has_proof,
      reason: r.reason,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      expiresAt: r.expires_at,
      txid: r.txid,
      transferId: r.status === 'confirmed' ? transferIdOf(r.id) : null,
    };
  }

  /** Paper mode: the sandbox provider pays the customer's own PIX charge through the signed webhook. */
  async simulate(userId: number, id: number): Promise<DepositDetailView> {
    const row = await repo.find(this.#d.db, id);
    if (!row || row.user_id !== userId) throw new AppError('deposit_not_found');
    if (!this.#d.simulatePayment || row.rail !== 'pix' || !row.txid) throw new AppError('deposit_transition_refused');
    if (row.status !== 'awaiting_payment') throw new AppError('deposit_transition_refused');
    await this.#d.simulatePayment(row.txid, this.#fmt(row.amount_minor, row.currency));
    return this.detail(userId, id);
  }

  /**
   * A provider's notification: refused (401) unless its HMAC-SHA256 signature matches; every payment
   * must name a known charge and its exact amount, else nothing is changed. A payment already credited
   * is answered OK and changes nothing (providers retry).
   */
  async notify(rawBody: string, signature: string | undefined): Promise<{ credited: number }> {
    if (!verifyPixSignature(rawBody, signature, this.#d.settings.pixWebhookSecret))
      throw new AppError('webhook_signature_invalid');
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw new AppError('malformed_body');
    }
    const payments = parsePixNotification(body);
    if (!payments) throw new AppError('malformed_body');
    const matched: { row: repo.DepositRow; endToEndId: string }[] = [];
    for (const payment of payments) {
      const row = await repo.findByTxid(this.#d.db, payment.txid);
      if (row?.rail !== 'pix') throw new AppError('deposit_not_found');
      const paid = tryParseDecimal(payment.amount, this.#scale(row.currency));
      if (!paid.ok || paid.minor !== row.amount_minor) {
        this.#d.log(`PIX notification for deposit ${row.id} with amount ${payment.amount}: refused`);
        throw new AppError('deposit_amount_mismatch');
      }
      matched.push({ row, endToEndId: payment.endToEndId });
    }
    let credited = 0;
    for (const { row, endToEndId } of matched) {
      if (row.status === 'confirmed') {
        // A retry after a credit that failed once (the provider repeats until answered OK).
        if (row.credited_at === null) await this.#credit(row);
        continue;
      }
      const moved = await this.#confirm(row, { kind: 'provider', id: endToEndId }, `PIX ${endToEndId}`, null);
      if (moved) credited++;
    }
    return { credited };
  }

  /** Bank and offline deposits waiting for the finance desk. */
  async pendingReview(): Promise<DepositReviewItem[]> {
    return (await repo.pendingReview(this.#d.db, REVIEW_PAGE)).map((r) => ({
      ...this.#view(r),
      userId: r.user_id,
      account: r.account,
    }));
  }

  /** The finance desk's decision, audited in the same transaction as the state change. */
  async decide(staffId: number, id: number, decision: 'confirm' | 'reject', reason: string): Promise<void> {
    const row = await repo.find(this.#d.db, id);
    if (!row) throw new AppError('deposit_not_found');
    // A PIX payment is confirmed by its provider's signed notification only, never by hand.
    if (row.rail === 'pix') throw new AppError('deposit_transition_refused');
    if (decision === 'confirm') {
      const moved = await this.#confirm(row, { kind: 'staff', id: String(staffId) }, reason, staffId);
      if (!moved) throw new AppError('deposit_transition_refused');
      return;
    }
    const at = this.#d.clock.now();
    await this.#d.db.transaction(async (tx) => {
      if (!(await repo.transitionAllowed(tx, row.status, 'rejected'))) throw new AppError('deposit_transition_refused');
      if (!(await repo.move(tx, id, row.status, 'rejected', reason, at)))
        throw new AppError('deposit_transition_refused');
      await repo.addHistory(tx, id, row.status, 'rejected', at, { kind: 'staff', id: String(staffId) }, reason);
      await appendAudit(
        tx,
        {
          staffId,
          action: 'deposits.reject',
          targetType: 'deposit',
          targetId: String(id),
          reason,
          detail: { userId: row.user_id },
        },
        at,
      );
    });
  }

  /**
   * Moves a deposit to confirmed (with its history row, and the audit row when staff decided) in one
   * transaction, then credits it. Answers false when it was no longer in a state that may be confirmed.
   */
  async #confirm(row: repo.DepositRow, actor: repo.Actor, reason: string, staffId: number | null): Promise<boolean> {
    const at = this.#d.clock.now();
    const moved = await this.#d.db.transaction(async (tx) => {
      if (!(await repo.transitionAllowed(tx, row.status, 'confirmed'))) return false;
      if (!(await repo.move(tx, row.id, row.status, 'confirmed', reason, at))) return false;
      await repo.addHistory(tx, row.id, row.status, 'confirmed', at, actor, reason);
      if (staffId !== null) {
        await appendAudit(
          tx,
          {
            staffId,
            action: 'deposits.confirm',
            targetType: 'deposit',
            targetId: String(row.id),
            reason,
            detail: { userId: row.user_id, amount: this.#fmt(row.amount_minor, row.currency), currency: row.currency },
          },
          at,
        );
      }
      return true;
    });
    if (moved) await this.#credit(row);
    return moved;
  }

  /** The one ledger credit of a confirmed deposit; a repeat is answered by the engine with the first. */
  async #credit(row: repo.DepositRow): Promise<void> {
    const result = await this.#d.engine.submit({
      type: 'deposit',
      id: transferIdOf(row.id),
      userId: String(row.user_id),
      wallet: DEPOSIT_WALLET,
      asset: row.currency,
      amount: this.#fmt(row.amount_minor, row.currency),
      from: row.rail === 'pix' ? 'rail:pix' : 'rail:bank',
      cause: 'deposit',
      link: transferIdOf(row.id),
    });
    if (!result.ok) throw new Error(`deposit ${row.id} not credited: ${result.code}`);
    await repo.markCredited(this.#d.db, row.id, this.#d.clock.now());
  }

  /** Start-up: credits confirmed deposits a crash left uncredited (each at most once: the command id). */
  async creditConfirmed(): Promise<number> {
    const rows = await repo.confirmedNotCredited(this.#d.db);
    for (const row of rows) await this.#credit(row);
    return rows.length;
  }

  /** PIX charges nobody paid in time become expired (a late payment still confirms: decision 0018). */
  async expireDue(): Promise<void> {
    const now = this.#d.clock.now();
    for (const row of await repo.dueToExpire(this.#d.db, now)) {
      await this.#d.db.transaction(async (tx) => {
        if (await repo.move(tx, row.id, 'awaiting_payment', 'expired', '', now))
          await repo.addHistory(tx, row.id, 'awaiting_payment', 'expired', now, { kind: 'system', id: '' }, '');
      });
    }
  }

  /** A proof image for its owner (userId) or finance staff (null); anyone else's answers not found. */
  async proof(id: number, userId: number | null): Promise<Buffer> {
    const row = await repo.proof(this.#d.db, id);
    if (!row?.data || (userId !== null && row.user_id !== userId)) throw new AppError('deposit_not_found');
    return Buffer.from(row.data, 'base64');
  }
}

export const transferIdOf = (id: number) => `deposit:${id}`;

const parse = (value: string, scale: number): bigint => {
  const parsed = tryParseDecimal(value, scale);
  if (!parsed.ok) throw new Error(`bad configured amount ${value}`);
  return parsed.minor;
};

/** An amount as the customer reads it in their language (for the limit messages). */
function shown(value: string, currency: string, lang: Lang): string {
  // Intl formats the decimal string itself, digit for digit (no float in between).
  return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(value as `${number}`);
}

/** What makes two requests with one key "the same": every field, the proof by its digest. */
function fingerprint(body: AddBody): string {
  const { proof, ...rest } = body;
  return canonicalJson({ ...rest, proof: proof ? sha256Hex(proof) : '' });
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
