// Customer accounts: registration, sign-in with optional TOTP, sessions, passwords, PINs and email.
// Holds: passwords and PINs only as argon2id hashes; tokens only as SHA-256; a rejected request
// changes nothing (checks first, then one transaction). A blocked user (status 0) is signed out
// on the next call.

import type { loginBody, ProfileView, registerBody, UserView } from '@bourse/contract';
import { normalizePhone } from '@bourse/contract';
import type { Db } from '@bourse/db';
import type { z } from 'zod';
import type { SmsPort } from '../../adapters/sms/sms-port.ts';
import type { Config } from '../../config.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { checkLoginAllowed, clearLoginFailures, recordLoginFailure } from '../../platform/login-throttle.ts';
import { PinCache } from '../../platform/pin-cache.ts';
import {
  hashPassword,
  newId,
  newInviteCode,
  newToken,
  sha256,
  verifyDecoy,
  verifyPassword,
} from '../../platform/secrets.ts';
import { checkTotp, freshTotpStep, newTotpSecret, totpUrl } from '../../platform/totp.ts';
import type { Captchas } from '../common/captcha.ts';
import * as repo from './repo.ts';
import type { CachedSession, SessionCache } from './session-cache.ts';

export const SESSION_TTL_MS = 30 * 24 * 3_600_000;
const TOUCH_EVERY_MS = 60_000;
const SMS_CODE_TTL_MS = 10 * 60_000;
const SMS_RESEND_MS = 60_000;
const SMS_MAX_ATTEMPTS = 5;

export type ClientMeta = { userAgent: string; ip: string };
export type Authenticated = { user: repo.UserRow; sessionId: string };

export function toUserView(u: repo.UserRow): UserView {
  return {
    id: u.id,
    account: `+${u.area_code} ${u.national_number}`,
    status: u.status,
    idStatus: u.id_status,
    hasTradePassword: u.trade_pin_hash !== null,
    hasWithdrawPassword: u.withdraw_pin_hash !== null,
    email: u.email,
    totpEnabled: u.totp_secret !== null,
  };
}

export class Accounts {
  readonly #db: Db;
  readonly #clock: Clock;
  /** PINs verified in the last minutes (see platform/pin-cache.ts): orders do not pay argon2 each time. */
  readonly #pins = new PinCache();
  readonly #config: Config;
  readonly #captchas: Captchas;
  readonly #sms: SmsPort;
  readonly #onUserCreated: (userId: number) => Promise<void>;
  readonly #sessions: SessionCache;

  constructor(deps: {
    db: Db;
    clock: Clock;
    config: Config;
    captchas: Captchas;
    sms: SmsPort;
    /** Live sessions in memory; every change to a user or their sessions below forgets them. */
    sessions: SessionCache;
    /** Called after a new account commits (paper mode grants its virtual funds here). */
    onUserCreated?: (userId: number) => Promise<void>;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#config = deps.config;
    this.#captchas = deps.captchas;
    this.#sms = deps.sms;
    this.#onUserCreated = deps.onUserCreated ?? (async () => undefined);
    this.#sessions = deps.sessions;
  }

  async register(input: z.output<typeof registerBody>, meta: ClientMeta) {
    const phone = normalizePhone(input.areaCode, input.phone);
    if (!phone) throw fieldError('phone', 'phone_invalid');
    if (this.#config.inviteCodeRequired && !input.inviteCode) throw fieldError('inviteCode', 'invite_code_required');
    // The captcha is spent whatever happens next, so it cannot be replayed to probe phone numbers.
    await this.#captchas.consume(this.#db, input.captchaId, input.captchaCode);
    const passwordHash = await hashPassword(input.password);
    const now = this.#clock.now();

    const result = await this.#db.transaction(async (tx) => {
      let invitedBy: number | null = null;
      if (input.inviteCode) {
        const inviter = await repo.findUserByInviteCode(tx, input.inviteCode.toUpperCase());
        if (!inviter) throw fieldError('inviteCode', 'invite_code_invalid');
        invitedBy = inviter.id;
      }
      if (this.#config.smsCodeRequired) {
        if (!input.smsCode) throw fieldError('smsCode', 'sms_code_incorrect');
        await this.#consumeSmsCode(tx, phone, 'register', input.smsCode, now);
      }
      if (await repo.findUserByPhone(tx, phone)) throw fieldError('phone', 'phone_taken');
      const userId = await repo.insertUser(tx, {
        phone,
        areaCode: input.areaCode,
        national: phone.slice(input.areaCode.length + 1),
        passwordHash,
        inviteCode: newInviteCode(),
        invitedBy,
        isDemo: false,
        now,
      });
      const token = await this.#startSession(tx, userId, meta, now);
      return { token, user: (await repo.findUserById(tx, userId))! };
    });
    await this.#onUserCreated(result.user.id);
    return { token: result.token, user: toUserView(result.user) };
  }

  async login(input: z.output<typeof loginBody>, meta: ClientMeta) {
    const phone = normalizePhone(input.areaCode, input.phone);
    if (!phone) throw fieldError('phone', 'phone_invalid');
    const now = this.#clock.now();
    await checkLoginAllowed(this.#db, phone, now);
    const user = await repo.findUserByPhone(this.#db, phone);
    const passwordOk = user
      ? await verifyPassword(user.password_hash, input.password)
      : await verifyDecoy(input.password);
    if (!user || !passwordOk) {
      await recordLoginFailure(this.#db, phone, now);
      throw new AppError('login_failed');
    }
    if (user.status === 0) throw new AppError('account_blocked');
    let step: number | null = null;
    if (user.totp_secret) {
      if (!input.totpCode) throw fieldError('totpCode', 'totp_required');
      // A code already used (or an older one) is refused like a wrong one: each code signs in once.
      step = freshTotpStep(user.totp_secret, input.totpCode, now, Number(user.totp_last_step));
      if (step === null) {
        await recordLoginFailure(this.#db, phone, now);
        throw fieldError('totpCode', 'totp_incorrect');
      }
    }
    await clearLoginFailures(this.#db, phone);
    const token = await this.#db.transaction(async (tx) => {
      // Claimed in the transaction, so that of two sign-ins with one code only the first gets a session.
      if (
        step !== null &&
        (await tx.run('UPDATE users SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2', [
          user.id,
          step,
        ])) === 0
      )
        throw fieldError('totpCode', 'totp_incorrect');
      return this.#startSession(tx, user.id, meta, now);
    });
    return { token, user: toUserView(user) };
  }

  async authenticate(token: string | undefined): Promise<Authenticated> {
    if (!token) throw new AppError('not_logged_in');
    const now = this.#clock.now();
    const entry = await this.#liveSession(token, now);
    if (!entry) throw new AppError('session_invalid');
    const { user, sessionId } = entry;
    if (user.status === 0) {
      await this.#changing(user.id, () => repo.revokeAllSessions(this.#db, user.id, now));
      throw new AppError('account_blocked');
    }
    if (now - entry.lastSeenAt > TOUCH_EVERY_MS) {
      entry.lastSeenAt = now;
      await repo.touchSession(this.#db, sessionId, now);
    }
    return { user, sessionId };
  }

  /**
   * Who a session token signs in, for a connection that outlives one request (the stream's account
   * channel), or why it does not. Unlike authenticate it changes nothing: no last-seen touch, and a
   * blocked customer's sessions are left for their next request, which still answers account_blocked.
   */
  async sessionUser(token: string): Promise<{ userId: number } | { refused: 'session_invalid' | 'account_blocked' }> {
    const entry = await this.#liveSession(token, this.#clock.now());
    if (!entry) return { refused: 'session_invalid' };
    return entry.user.status === 0 ? { refused: 'account_blocked' } : { userId: entry.user.id };
  }

  /** Called with a user's id after each committed change to that user or their sessions. */
  onSessionsChanged(listener: (userId: number) => void): () => void {
    return this.#sessions.onForget(listener);
  }

  /** The session a token belongs to and its user, from the cache or the database; null if none is live. */
  async #liveSession(token: string, now: number): Promise<CachedSession | null> {
    const tokenHash = sha256(token);
    const cached = this.#sessions.get(tokenHash, now);
    if (cached) return cached;
    const generation = this.#sessions.generation;
    const row = await repo.findSessionUser(this.#db, tokenHash, now);
    if (!row) return null;
    const { session_id, session_last_seen_at, session_expires_at, ...user } = row;
    const entry = {
      user,
      sessionId: session_id,
      expiresAt: Number(session_expires_at),
      lastSeenAt: Number(session_last_seen_at),
      cachedAt: now,
    };
    if (user.status !== 0) this.#sessions.set(tokenHash, entry, generation);
    return entry;
  }

  /** Runs a write to a user or their sessions, then drops that user's cached sessions. */
  async #changing<T>(userId: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.#sessions.forgetUser(userId);
    }
  }

  loginInfo(user: repo.UserRow) {
    return {
      user: toUserView(user),
      openAutoApply: this.#config.openAutoApply,
      serviceSaleSmartly: this.#config.serviceChatUrl,
    };
  }

  /** /user/info: read fresh from the database, not the session cache, so a change shows at once. */
  async profile(auth: Authenticated): Promise<ProfileView> {
    const u = (await repo.findUserById(this.#db, auth.user.id)) ?? auth.user;
    return {
      ...toUserView(u),
      areaCode: u.area_code,
      phone: u.national_number,
      nickname: u.nickname,
      createdAt: Number(u.created_at),
    };
  }

  /** /user/update: the nickname only (validated by the contract); nothing else about a user changes here. */
  async updateProfile(auth: Authenticated, nickname: string): Promise<ProfileView> {
    await this.#changing(auth.user.id, () =>
      repo.updateUser(this.#db, auth.user.id, 'nickname', nickname, this.#clock.now()),
    );
    return this.profile(auth);
  }

  async logout(auth: Authenticated) {
    await this.#changing(auth.user.id, () =>
      repo.revokeSession(this.#db, auth.user.id, auth.sessionId, this.#clock.now()),
    );
  }

  async sessions(auth: Authenticated) {
    const rows = await repo.listLiveSessions(this.#db, auth.user.id, this.#clock.now());
    return rows.map((s) => ({
      id: s.id,
      createdAt: new Date(s.created_at).toISOString(),
      lastSeenAt: new Date(s.last_seen_at).toISOString(),
      userAgent: s.user_agent,
      ip: s.ip,
      current: s.id === auth.sessionId,
    }));
  }

  async revokeSession(auth: Authenticated, id: string) {
    const changed = await this.#changing(auth.user.id, () =>
      repo.revokeSession(this.#db, auth.user.id, id, this.#clock.now()),
    );
    // Another user's session id answers exactly like an unknown one.
    if (changed === 0) throw new AppError('not_found');
  }

  async changePassword(auth: Authenticated, oldPassword: string, password: string) {
    await this.#requirePassword(auth.user, oldPassword, 'oldPassword');
    const hash = await hashPassword(password);
    const now = this.#clock.now();
    await this.#changing(auth.user.id, () =>
      this.#db.transaction(async (tx) => {
        await repo.updateUser(tx, auth.user.id, 'password_hash', hash, now);
        await repo.updateUser(tx, auth.user.id, 'security_changed_at', now, now);
        // A new password signs out every other device.
        await repo.revokeAllSessions(tx, auth.user.id, now, auth.sessionId);
      }),
    );
  }

  async setPin(auth: Authenticated, kind: 'trade' | 'withdraw', pin: string, loginPassword: string) {
    await this.#requirePassword(auth.user, loginPassword, 'loginPassword');
    const column = kind === 'trade' ? 'trade_pin_hash' : 'withdraw_pin_hash';
    const hash = await hashPassword(pin);
    const now = this.#clock.now();
    // Replacing a withdrawal password (not setting the first) locks withdrawals like a new password does.
    const isSecurityChange = kind === 'withdraw' && auth.user.withdraw_pin_hash !== null;
    await this.#changing(auth.user.id, () =>
      this.#db.transaction(async (tx) => {
        await repo.updateUser(tx, auth.user.id, column, hash, now);
        if (isSecurityChange) await repo.updateUser(tx, auth.user.id, 'security_changed_at', now, now);
      }),
    );
  }

  /** Checks a 6-digit transaction or withdrawal password; used by money-moving features. */
  async checkPin(user: repo.UserRow, kind: 'trade' | 'withdraw', pin: string | undefined): Promise<void> {
    const hash = kind === 'trade' ? user.trade_pin_hash : user.withdraw_pin_hash;
    if (!hash) throw new AppError(kind === 'trade' ? 'trade_password_not_set' : 'withdraw_password_not_set');
    // Not sent is not wrong: it is asked for, and counts toward no lockout.
    if (!pin) throw fieldError('password', 'field_required');
    const subject = `pin:${kind}:${user.id}`;
    const now = this.#clock.now();
    if (this.#pins.has(subject, hash, pin, now)) return;
    await checkLoginAllowed(this.#db, subject, now);
    if (!(await verifyPassword(hash, pin))) {
      await recordLoginFailure(this.#db, subject, now);
      throw fieldError('password', kind === 'trade' ? 'trade_password_incorrect' : 'withdraw_password_incorrect');
    }
    await clearLoginFailures(this.#db, subject);
    this.#pins.remember(subject, hash, pin, now);
  }

  async updateEmail(auth: Authenticated, email: string, loginPassword: string) {
    await this.#requirePassword(auth.user, loginPassword, 'loginPassword');
    await this.#changing(auth.user.id, () =>
      repo.updateUser(this.#db, auth.user.id, 'email', email, this.#clock.now()),
    );
  }

  async totpSetup(auth: Authenticated) {
    const secret = newTotpSecret();
    await this.#changing(auth.user.id, () =>
      repo.updateUser(this.#db, auth.user.id, 'totp_pending_secret', secret, this.#clock.now()),
    );
    return { secret, otpauthUrl: totpUrl(secret, toUserView(auth.user).account, this.#config.platformName) };
  }

  async totpEnable(auth: Authenticated, code: string) {
    const pending = auth.user.totp_pending_secret;
    if (!pending) throw new AppError('totp_not_started');
    const now = this.#clock.now();
    if (!checkTotp(pending, code, now)) throw fieldError('code', 'totp_incorrect');
    await this.#changing(auth.user.id, () =>
      this.#db.transaction(async (tx) => {
        await repo.updateUser(tx, auth.user.id, 'totp_secret', pending, now);
        await repo.updateUser(tx, auth.user.id, 'totp_pending_secret', null, now);
        await repo.updateUser(tx, auth.user.id, 'security_changed_at', now, now);
      }),
    );
  }

  async totpDisable(auth: Authenticated, code: string, loginPassword: string) {
    await this.#requirePassword(auth.user, loginPassword, 'loginPassword');
    const now = this.#clock.now();
    if (!auth.user.totp_secret || !checkTotp(auth.user.totp_secret, code, now))
      throw fieldError('code', 'totp_incorrect');
    await this.#changing(auth.user.id, () =>
      this.#db.transaction(async (tx) => {
        await repo.updateUser(tx, auth.user.id, 'totp_secret', null, now);
        await repo.updateUser(tx, auth.user.id, 'security_changed_at', now, now);
      }),
    );
  }

  async sendCode(areaCode: string, national: string, purpose: string) {
    const phone = normalizePhone(areaCode, national);
    if (!phone) throw fieldError('phone', 'phone_invalid');
    const now = this.#clock.now();
    const last = await this.#db.query<{ created_at: number }>(
      'SELECT created_at FROM sms_codes WHERE phone = $1 AND purpose = $2 ORDER BY created_at DESC LIMIT 1',
      [phone, purpose],
    );
    if (last[0] && now - last[0].created_at < SMS_RESEND_MS) throw new AppError('sms_too_soon');
    const code = String(Number.parseInt(newId(4), 16) % 1_000_000).padStart(6, '0');
    await this.#db.run(
      'INSERT INTO sms_codes (phone, purpose, code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [phone, purpose, sha256(`${phone}:${purpose}:${code}`), now, now + SMS_CODE_TTL_MS],
    );
    await this.#sms.send({ to: phone, code, at: now, text: `${this.#config.platformName}: your code is ${code}` });
    return { sent: true, resendAfterSec: SMS_RESEND_MS / 1000 };
  }

  async #consumeSmsCode(tx: import('@bourse/db').Sql, phone: string, purpose: string, code: string, now: number) {
    const rows = await tx.query<{ id: number; code_hash: string; attempts: number }>(
      `SELECT id, code_hash, attempts FROM sms_codes
       WHERE phone = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 ORDER BY created_at DESC LIMIT 1`,
      [phone, purpose, now],
    );
    const row = rows[0];
    if (!row || row.attempts >= SMS_MAX_ATTEMPTS || row.code_hash !== sha256(`${phone}:${purpose}:${code}`)) {
      throw fieldError('smsCode', 'sms_code_incorrect');
    }
    await tx.run('UPDATE sms_codes SET used_at = $2 WHERE id = $1', [row.id, now]);
  }

  async #requirePassword(user: repo.UserRow, password: string, field: string) {
    const subject = `password:${user.id}`;
    const now = this.#clock.now();
    await checkLoginAllowed(this.#db, subject, now);
    if (!(await verifyPassword(user.password_hash, password))) {
      await recordLoginFailure(this.#db, subject, now);
      throw fieldError(field, 'password_incorrect');
    }
    // Right at last: the wrong tries before it no longer count toward a lockout.
    await clearLoginFailures(this.#db, subject);
  }

  async #startSession(tx: import('@bourse/db').Sql, userId: number, meta: ClientMeta, now: number): Promise<string> {
    const token = newToken();
    await repo.insertSession(tx, {
      id: newId(),
      userId,
      tokenHash: sha256(token),
      now,
      expiresAt: now + SESSION_TTL_MS,
      userAgent: meta.userAgent,
      ip: meta.ip,
    });
    return token;
  }
}
