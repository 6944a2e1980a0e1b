// SQL for customer accounts and sessions. Returns plain rows; no business rules here.

import type { Sql } from '@bourse/db';

export type UserRow = {
  id: number;
  phone: string;
  area_code: string;
  national_number: string;
  password_hash: string;
  trade_pin_hash: string | null;
  withdraw_pin_hash: string | null;
  email: string | null;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  /** The time step of the last TOTP code that signed in (migration 12). */
  totp_last_step: number;
  status: number;
  id_status: 'none' | 'pending' | 'succ' | 'fail';
  invite_code: string;
  invited_by: number | null;
  /** Migration 17; '' when none set. */
  nickname: string;
  created_at: number;
};

export type SessionRow = {
  id: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string;
  ip: string;
};

export const findUserByPhone = async (db: Sql, phone: string) =>
  (await db.query<UserRow>('SELECT * FROM users WHERE phone = $1', [phone]))[0];

export const findUserById = async (db: Sql, id: number) =>
  (await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]))[0];

export const findUserByInviteCode = async (db: Sql, code: string) =>
  (await db.query<UserRow>('SELECT * FROM users WHERE invite_code = $1', [code]))[0];

export async function insertUser(
  db: Sql,
  u: {
    phone: string;
    areaCode: string;
    national: string;
    passwordHash: string;
    inviteCode: string;
    invitedBy: number | null;
    isDemo: boolean;
    now: number;
  },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO users (phone, area_code, national_number, password_hash, invite_code, invited_by, is_demo, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
    [u.phone, u.areaCode, u.national, u.passwordHash, u.inviteCode, u.invitedBy, u.isDemo ? 1 : 0, u.now],
  );
  return rows[0]!.id;
}

const UPDATABLE = [
  'password_hash',
  'trade_pin_hash',
  'withdraw_pin_hash',
  'email',
  'totp_secret',
  'totp_pending_secret',
  'status',
  'id_status',
  'nickname',
  'security_changed_at',
] as const;
export type UpdatableColumn = (typeof UPDATABLE)[number];

export async function updateUser(
  db: Sql,
  id: number,
  column: UpdatableColumn,
  value: string | number | null,
  now: number,
) {
  if (!UPDATABLE.includes(column)) throw new Error(`column ${column} is not updatable`);
  await db.run(`UPDATE users SET ${column} = $2, updated_at = $3 WHERE id = $1`, [id, value, now]);
}

/** When the password, two-factor or withdrawal password last changed (0: never); the withdrawal lock reads it. */
export const securityChangedAt = async (db: Sql, userId: number) =>
  Number(
    (await db.query<{ at: number }>('SELECT security_changed_at AS at FROM users WHERE id = $1', [userId]))[0]?.at ?? 0,
  );

export async function insertSession(
  db: Sql,
  s: { id: string; userId: number; tokenHash: string; now: number; expiresAt: number; userAgent: string; ip: string },
) {
  await db.run(
    `INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, ip)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7)`,
    [s.id, s.userId, s.tokenHash, s.now, s.expiresAt, s.userAgent.slice(0, 300), s.ip],
  );
}

/** A live session and its user in one round trip (every signed-in request asks this). */
export const findSessionUser = async (db: Sql, tokenHash: string, now: number) =>
  (
    await db.query<UserRow & { session_id: string; session_last_seen_at: number; session_expires_at: number }>(
      `SELECT u.*, s.id AS session_id, s.last_seen_at AS session_last_seen_at, s.expires_at AS session_expires_at
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
      [tokenHash, now],
    )
  )[0];

export const listLiveSessions = (db: Sql, userId: number, now: number) =>
  db.query<SessionRow>(
    'SELECT * FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY last_seen_at DESC',
    [userId, now],
  );

export const touchSession = (db: Sql, id: string, now: number) =>
  db.run('UPDATE sessions SET last_seen_at = $2 WHERE id = $1', [id, now]);

export const revokeSession = (db: Sql, userId: number, id: string, now: number) =>
  db.run('UPDATE sessions SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL', [
    id,
    userId,
    now,
  ]);

export const revokeAllSessions = (db: Sql, userId: number, now: number, exceptId: string | null = null) =>
  db.run('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND id <> $3', [
    userId,
    now,
    exceptId ?? '',
  ]);
