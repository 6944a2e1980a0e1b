// Staff accounts and what they may do: sign-in always needs password + TOTP; each role's rights come
// from the contract's STAFF_PERMISSIONS; every change a staff member makes is written to the audit
// log in the same transaction as the change itself.

import { type StaffPermission, type StaffRole, staffCan } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { checkLoginAllowed, clearLoginFailures, recordLoginFailure } from '../../platform/login-throttle.ts';
import { hashPassword, newId, newToken, sha256, verifyDecoy, verifyPassword } from '../../platform/secrets.ts';
import { freshTotpStep, newTotpSecret, totpUrl } from '../../platform/totp.ts';
import * as accountsRepo from '../accounts/repo.ts';
import type { SessionCache } from '../accounts/session-cache.ts';
import { appendAudit, listAudit } from './audit.ts';
import type { StaffRow } from './repo.ts';
import * as repo from './repo.ts';

const STAFF_SESSION_TTL_MS = 12 * 3_600_000;

export type StaffAuth = { staff: StaffRow; sessionId: string };

const view = (s: StaffRow) => ({ id: s.id, username: s.username, role: s.role });

export class Staff {
  readonly #db: Db;
  readonly #sessions: SessionCache;
  readonly #clock: Clock;
  readonly #issuer: string;
  constructor(deps: { db: Db; clock: Clock; issuer: string; sessions: SessionCache }) {
    this.#db = deps.db;
    this.#sessions = deps.sessions;
    this.#clock = deps.clock;
    this.#issuer = deps.issuer;
  }

  async login(username: string, password: string, totpCode: string) {
    const now = this.#clock.now();
    const subject = `staff:${username.toLowerCase()}`;
    await checkLoginAllowed(this.#db, subject, now);
    const staff = await repo.findStaffByUsername(this.#db, username.toLowerCase());
    const passwordOk = staff ? await verifyPassword(staff.password_hash, password) : await verifyDecoy(password);
    // A code already used (or an older one) is refused like a wrong one: seen once, it must not sign in again.
    const step =
      staff && passwordOk && staff.status === 1
        ? freshTotpStep(staff.totp_secret, totpCode, now, Number(staff.totp_last_step))
        : null;
    if (!staff || step === null) {
      await recordLoginFailure(this.#db, subject, now);
      throw new AppError('staff_login_failed');
    }
    await clearLoginFailures(this.#db, subject);
    const token = newToken();
    await this.#db.transaction(async (tx) => {
      // Claimed in the transaction, so that of two sign-ins with one code only the first gets a session.
      if ((await repo.claimTotpStep(tx, staff.id, step)) === 0) throw new AppError('staff_login_failed');
      await repo.insertStaffSession(tx, {
        id: newId(),
        staffId: staff.id,
        tokenHash: sha256(token),
        now,
        expiresAt: now + STAFF_SESSION_TTL_MS,
      });
      await appendAudit(
        tx,
        {
          staffId: staff.id,
          action: 'staff.sign_in',
          targetType: 'staff',
          targetId: String(staff.id),
          reason: '',
          detail: {},
        },
        now,
      );
    });
    return { token, staff: view(staff) };
  }

  async authenticate(token: string | undefined, permission?: StaffPermission): Promise<StaffAuth> {
    if (!token) throw new AppError('not_logged_in');
    const now = this.#clock.now();
    const row = await repo.findSessionStaff(this.#db, sha256(token), now);
    if (!row && (await this.#isCustomerSession(token, now))) throw new AppError('forbidden');
    if (row?.status !== 1) throw new AppError('session_invalid');
    if (permission && !staffCan(row.role, permission)) throw new AppError('forbidden');
    return { staff: row, sessionId: row.session_id };
  }

  /** A signed-in customer is known but has no right to a staff call: forbidden, not "sign in again". */
  async #isCustomerSession(token: string, now: number): Promise<boolean> {
    return repo.customerSessionExists(this.#db, sha256(token), now);
  }

  me(auth: StaffAuth) {
    return { staff: view(auth.staff) };
  }

  async logout(auth: StaffAuth) {
    await repo.revokeStaffSession(this.#db, auth.sessionId, this.#clock.now());
  }

  async changePassword(auth: StaffAuth, oldPassword: string, password: string) {
    const now = this.#clock.now();
    // The same back-off as signing in: a session must not become a way to guess the password.
    const subject = `staff-password:${auth.staff.id}`;
    await checkLoginAllowed(this.#db, subject, now);
    if (!(await verifyPassword(auth.staff.password_hash, oldPassword))) {
      await recordLoginFailure(this.#db, subject, now);
      throw fieldError('oldPassword', 'password_incorrect');
    }
    await clearLoginFailures(this.#db, subject);
    const hash = await hashPassword(password);
    await this.#db.transaction(async (tx) => {
      await repo.updateStaffPassword(tx, auth.staff.id, hash);
      await repo.revokeOtherStaffSessions(tx, auth.staff.id, auth.sessionId, now);
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'staff.password_changed',
          targetType: 'staff',
          targetId: String(auth.staff.id),
          reason: '',
          detail: {},
        },
        now,
      );
    });
  }

  async list() {
    const rows = await repo.listStaff(this.#db);
    return rows.map((s) => ({ ...view(s), status: s.status, createdAt: new Date(s.created_at).toISOString() }));
  }

  /**
   * Creates a staff member, with the written reason in its audit row; the initial password and TOTP
   * secret are shown once and never again.
   */
  async create(
    auth: StaffAuth,
    account: { username: string; role: StaffRole; reason: string },
    fixed?: { password: string; totpSecret: string; passwordHash?: string },
  ) {
    const { username, role, reason } = account;
    const initialPassword = fixed?.password ?? newToken().slice(0, 16);
    const totpSecret = fixed?.totpSecret ?? newTotpSecret();
    const hash = fixed?.passwordHash ?? (await hashPassword(initialPassword));
    const now = this.#clock.now();
    const id = await this.#db.transaction(async (tx) => {
      if (await repo.usernameTaken(tx, username)) throw fieldError('username', 'staff_username_taken');
      const created = await repo.insertStaff(tx, { username, passwordHash: hash, totpSecret, role, now });
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id || null,
          action: 'staff.created',
          targetType: 'staff',
          targetId: String(created),
          reason,
          detail: { username, role },
        },
        now,
      );
      return created;
    });
    return {
      id,
      username,
      role,
      initialPassword,
      totpSecret,
      otpauthUrl: totpUrl(totpSecret, username, `${this.#issuer} staff`),
    };
  }

  async disable(auth: StaffAuth, id: number, reason: string) {
    if (id === auth.staff.id) throw new AppError('staff_cannot_disable_self');
    const now = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      // Never the last active administrator: two disabling each other at once would leave none. The
      // active administrators are locked first (PostgreSQL; SQLite runs one writing transaction at a
      // time), so the second of two such disables waits for the first and then counts what it left.
      if (tx.dialect === 'postgres') await repo.lockActiveAdmins(tx);
      if ((await repo.disableStaff(tx, id)) === 0) throw new AppError('not_found');
      if ((await repo.countActiveAdmins(tx)) === 0) throw new AppError('last_admin');
      await repo.revokeAllStaffSessions(tx, id, now);
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'staff.disabled',
          targetType: 'staff',
          targetId: String(id),
          reason,
          detail: {},
        },
        now,
      );
    });
  }

  async users(q: { page: number; limit: number; keyword?: string | undefined }) {
    const like = q.keyword ? `%${q.keyword.replace(/[%_]/g, '')}%` : '%';
    const total = await repo.countUsersByPhone(this.#db, like);
    const rows = await repo.listUsersByPhone(this.#db, like, q.limit, (q.page - 1) * q.limit);
    return {
      total,
      items: rows.map((u) => ({
        id: u.id,
        account: `+${u.area_code} ${u.national_number}`,
        status: u.status,
        idStatus: u.id_status,
        createdAt: new Date(u.created_at).toISOString(),
      })),
    };
  }

  /**
   * Blocks (0) or unblocks (1) a customer. Every session from before the unblock ends with it. Setting the
   * status the customer already has changes nothing and is not audited.
   */
  async setUserStatus(auth: StaffAuth, userId: number, status: 0 | 1, reason: string) {
    const now = this.#clock.now();
    try {
      await this.#setUserStatus(auth, userId, status, reason, now);
    } finally {
      this.#sessions.forgetUser(userId); // a blocked customer is refused from the next request on
    }
  }

  async #setUserStatus(auth: StaffAuth, userId: number, status: 0 | 1, reason: string, now: number) {
    await this.#db.transaction(async (tx) => {
      const user = await accountsRepo.findUserById(tx, userId);
      if (!user) throw new AppError('not_found');
      if (user.status === status) return;
      await accountsRepo.updateUser(tx, userId, 'status', status, now);
      // A blocked customer's sessions answer account_blocked until used (then they end); unblocking ends any
      // still left, so that a token taken before the block (an account takeover) does not work again.
      if (status === 1) await accountsRepo.revokeAllSessions(tx, userId, now);
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: status === 0 ? 'user.blocked' : 'user.unblocked',
          targetType: 'user',
          targetId: String(userId),
          reason,
          detail: { from: user.status, to: status },
        },
        now,
      );
    });
  }

  audit(q: { page: number; limit: number; action?: string | undefined; staffId?: number | undefined }) {
    return listAudit(this.#db, q);
  }
}
