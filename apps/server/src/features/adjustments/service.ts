// Manual adjustments (PRODUCT.md rule 2): staff member A proposes a signed amount for a customer's wallet
// with a written reason; a DIFFERENT staff member B approves it (an engine transfer, cause `adjustment`,
// between the customer's wallet and the platform's `adjustments` account, linked to the row) or rejects
// it. Life cycle pending → approved | rejected (adjustment_transitions); each action audited in the same
// transaction as the row's change. Must not: edit a balance; let one person both propose and decide.

import type { AdjustmentView } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { appendAudit } from '../staff/audit.ts';
import * as repo from './repo.ts';

/** The platform account adjustments are paid from and into. */
export const ADJUSTMENTS_ACCOUNT = 'adjustments';

/** The ledger transfer an approved adjustment posts, and a debit's funds hold before it. */
export const adjustmentTransferId = (id: number) => `adjustment:${id}`;
const adjustmentHoldId = (id: number) => `adjustment:${id}:hold`;

export class Adjustments {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #clock: Clock;
  constructor(deps: { db: Db; engine: TradingEngine; clock: Clock }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#clock = deps.clock;
  }

  /** The written reasons of this customer's approved adjustments among `links` (adjustment:<id>). */
  async notes(userId: number, links: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const ids = links.flatMap((link) => {
      const match = /^adjustment:(\d{1,15})$/.exec(link);
      return match ? [Number(match[1])] : [];
    });
    if (ids.length === 0) return new Map();
    const rows = await repo.reasonsOf(this.#db, userId, ids);
    return new Map(rows.map((r) => [`adjustment:${r.id}`, r.reason]));
  }

  async list(status: repo.AdjustmentStatus | 'all'): Promise<AdjustmentView[]> {
    return (await repo.list(this.#db, status, 200)).map(view);
  }

  async propose(
    staffId: number,
    body: { userId: number; wallet: string; asset: string; amount: string; reason: string },
  ): Promise<AdjustmentView> {
    const scale = this.#engine.state.asset(body.asset)?.scale;
    if (scale === undefined) throw new AppError('unknown_asset', { asset: 'unknown_asset' });
    const negative = body.amount.startsWith('-');
    const parsed = tryParseDecimal(negative ? body.amount.slice(1) : body.amount, scale);
    if (!parsed.ok || parsed.minor === 0n) throw new AppError('invalid_amount', { amount: 'invalid_amount' });
    const amount = formatDecimal(negative ? -parsed.minor : parsed.minor, scale);
    const at = this.#clock.now();
    const id = await this.#db.transaction(async (tx) => {
      if (!(await repo.userExists(tx, body.userId))) throw new AppError('adjustment_customer_not_found');
      const id = await repo.insert(tx, { ...body, amount, staffId, at });
      await appendAudit(
        tx,
        {
          staffId,
          action: 'adjustment.propose',
          targetType: 'adjustment',
          targetId: String(id),
          reason: body.reason,
          detail: { userId: body.userId, wallet: body.wallet, asset: body.asset, amount },
        },
        at,
      );
      return id;
    });
    return view((await repo.find(this.#db, id)) as repo.AdjustmentRow);
  }

  async decide(staffId: number, id: number, decision: 'approve' | 'reject', reason: string): Promise<AdjustmentView> {
    const row = await repo.find(this.#db, id);
    if (!row) throw new AppError('adjustment_not_found');
    if (row.status !== 'pending') throw new AppError('adjustment_already_decided');
    if (row.proposed_by === staffId) throw new AppError('adjustment_same_staff');
    const to = decision === 'approve' ? 'approved' : 'rejected';
    // Money first (idempotent by id, so a retry after a crash posts nothing twice), then the row and its
    // audit entry in one transaction; a refusal by the engine leaves the row pending and changes nothing.
    const transferId = decision === 'approve' ? await this.#post(row) : null;
    const at = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      if (!(await repo.transitionAllowed(tx, row.status, to))) throw new AppError('adjustment_already_decided');
      if (!(await repo.decide(tx, { id, to, staffId, at, reason, transferId })))
        throw new AppError('adjustment_already_decided');
      await appendAudit(
        tx,
        {
          staffId,
          action: `adjustment.${decision}`,
          targetType: 'adjustment',
          targetId: String(id),
          reason,
          detail: { userId: row.user_id, wallet: row.wallet, asset: row.asset, amount: row.amount, transferId },
        },
        at,
      );
    });
    return view((await repo.find(this.#db, id)) as repo.AdjustmentRow);
  }

  /** The adjustment's one ledger transfer: a credit from the platform, or a debit through a funds hold. */
  async #post(row: repo.AdjustmentRow): Promise<string> {
    const transferId = adjustmentTransferId(row.id);
    if (await repo.transferExists(this.#db, transferId)) return transferId;
    const link = `adjustment:${row.id}`;
    const userId = String(row.user_id);
    const wallet = row.wallet as 'stock' | 'spot';
    if (!row.amount.startsWith('-')) {
      const result = await this.#engine.submit({
        type: 'deposit',
        id: transferId,
        userId,
        wallet,
        asset: row.asset,
        amount: row.amount,
        from: ADJUSTMENTS_ACCOUNT,
        cause: 'adjustment',
        link,
      });
      if (!result.ok) throw new AppError(result.code);
      return transferId;
    }
    // A debit: reserve the customer's available funds (refused when short), then post them. Short funds
    // are refused here before any command: the engine's window remembers a refused command by its id,
    // and would answer a later approval (once the customer has the funds) with the same refusal.
    const scale = this.#engine.state.asset(row.asset)?.scale ?? 0;
    const debit = tryParseDecimal(row.amount.slice(1), scale);
    if (!debit.ok || this.#engine.state.balance(userId, wallet, row.asset).available < debit.minor) {
      throw new AppError('insufficient_balance');
    }
    const holdId = adjustmentHoldId(row.id);
    const held = await this.#engine.submit({
      type: 'hold_funds',
      id: holdId,
      userId,
      wallet,
      asset: row.asset,
      amount: row.amount.slice(1),
      cause: 'adjustment',
      link,
    });
    // A retry of the same hold is answered by the engine's window with its first result.
    if (!held.ok) throw new AppError(held.code);
    const posted = await this.#engine.submit({ type: 'post_hold', id: transferId, holdId, to: ADJUSTMENTS_ACCOUNT });
    if (!posted.ok) throw new AppError(posted.code);
    return transferId;
  }
}

function view(r: repo.AdjustmentRow): AdjustmentView {
  return {
    id: r.id,
    userId: r.user_id,
    wallet: r.wallet,
    asset: r.asset,
    amount: r.amount,
    reason: r.reason,
    status: r.status,
    proposedBy: r.proposed_by,
    proposedByName: r.proposed_by_name,
    proposedAt: r.proposed_at,
    decidedBy: r.decided_by,
    decidedByName: r.decided_by_name,
    decidedAt: r.decided_at,
    decisionReason: r.decision_reason,
    transferId: r.transfer_id,
  };
}
