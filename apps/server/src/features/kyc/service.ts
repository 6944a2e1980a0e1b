// KYC life cycle: none → pending → succ | fail, fail → pending, checked against kyc_transitions.
// users.id_status always mirrors the latest submission (the drawer's badge reads it); every staff
// decision is audited in the same transaction. Moves no money.

import type { KycReviewItem, KycSubmitBody, KycView } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { SessionCache } from '../accounts/session-cache.ts';
import { appendAudit } from '../staff/audit.ts';
import { cleanPhoto } from './images.ts';
import * as repo from './repo.ts';

export class Kyc {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #sessions: SessionCache;
  constructor(deps: { db: Db; clock: Clock; sessions: SessionCache }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#sessions = deps.sessions;
  }

  async view(userId: number): Promise<KycView> {
    const idStatus = await repo.userStatus(this.#db, userId);
    const s = await repo.latestFor(this.#db, userId);
    return {
      idStatus,
      reason: s?.status === 'fail' ? s.reason : '',
      submission: s
        ? { id: s.id, docType: s.doc_type, fullName: s.full_name, docNumber: s.doc_number, createdAt: s.created_at }
        : null,
    };
  }

  async submit(userId: number, body: KycSubmitBody): Promise<KycView> {
    // Photos are checked before anything is written, so a refusal changes nothing.
    const current = await repo.userStatus(this.#db, userId);
    if (!(await repo.transitionAllowed(this.#db, current, 'pending'))) throw new AppError('kyc_transition_refused');
    const front = (await cleanPhoto(body.front)).toString('base64');
    const back = (await cleanPhoto(body.back)).toString('base64');
    const at = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      const now = await repo.userStatus(tx, userId);
      if (!(await repo.transitionAllowed(tx, now, 'pending'))) throw new AppError('kyc_transition_refused');
      await repo.insert(tx, {
        userId,
        docType: body.docType,
        fullName: body.fullName,
        docNumber: body.docNumber,
        front,
        back,
        at,
      });
      await repo.setUserStatus(tx, userId, 'pending');
    });
    // Cached sessions carry the user row: drop them so login info shows the new state at once.
    this.#sessions.forgetUser(userId);
    return this.view(userId);
  }

  async pending(): Promise<KycReviewItem[]> {
    return (await repo.pending(this.#db)).map((s) => ({
      id: s.id,
      userId: s.user_id,
      docType: s.doc_type,
      fullName: s.full_name,
      docNumber: s.doc_number,
      status: s.status,
      createdAt: s.created_at,
    }));
  }

  async decide(staffId: number, id: number, decision: 'approve' | 'reject', reason: string): Promise<void> {
    const userId = await this.#decide(staffId, id, decision, reason);
    this.#sessions.forgetUser(userId);
  }

  async #decide(staffId: number, id: number, decision: 'approve' | 'reject', reason: string): Promise<number> {
    const to = decision === 'approve' ? 'succ' : 'fail';
    const at = this.#clock.now();
    return this.#db.transaction(async (tx) => {
      const s = await repo.findById(tx, id);
      if (!s) throw new AppError('kyc_not_found');
      if (!(await repo.transitionAllowed(tx, s.status, to))) throw new AppError('kyc_transition_refused');
      await repo.decide(tx, id, to, reason, staffId, at);
      await repo.setUserStatus(tx, s.user_id, to);
      await appendAudit(
        tx,
        {
          staffId,
          action: `kyc.${decision}`,
          targetType: 'kyc_submission',
          targetId: String(id),
          reason,
          detail: { userId: s.user_id },
        },
        at,
      );
      return s.user_id;
    });
  }

  /** A photo for its owner (userId) or for staff (userId null); someone else's answers not found. */
  async image(id: number, side: 'front' | 'back', userId: number | null): Promise<Buffer> {
    const row = await repo.image(this.#db, id, side);
    if (!row || (userId !== null && row.user_id !== userId)) throw new AppError('kyc_not_found');
    return Buffer.from(row.data, 'base64');
  }
}
