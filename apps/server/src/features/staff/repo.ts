// SQL for staff accounts and staff sessions, and the console's reads of customer rows. Returns plain
// rows; the rules (TOTP, roles, never the last administrator) stay in service.ts and the audit log's
// hash chain in audit.ts. A function that must join a caller's transaction takes it as `db`.

import type { StaffRole } from '@bourse/contract';
import type { Sql } from '@bourse/db';
import type { UserRow } from '../accounts/repo.ts';

export type StaffRow = {
  id: number;
  username: string;
  password_hash: string;
  totp_secret: string;
  /** The time step of the last TOTP code that signed in (migration 12). */
  totp_last_step: number;
  role: StaffRole;
  status: number;
  created_at: number;
};

export const findStaffByUsername = async (db: Sql, username: string) =>
  (await db.query<StaffRow>('SELECT * FROM staff WHERE username = $1', [username]))[0];

/** Claims a TOTP step: 0 rows changed when this step (or a later one) was already used. */
export const claimTotpStep = (db: Sql, staffId: number, step: number) =>
  db.run('UPDATE staff SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2', [staffId, step]);

export const insertStaffSession = (
  db: Sql,
  s: { id: string; staffId: number; tokenHash: string; now: number; expiresAt: number },
) =>
  db.run(
    `INSERT INTO staff_sessions (id, staff_id, token_hash, created_at, last_seen_at, expires_at)
         VALUES ($1, $2, $3, $4, $4, $5)`,
    [s.id, s.staffId, s.tokenHash, s.now, s.expiresAt],
  );

/** A live staff session and its staff member in one round trip. */
export const findSessionStaff = async (db: Sql, tokenHash: string, now: number) =>
  (
    await db.query<StaffRow & { session_id: string }>(
      `SELECT s.*, ss.id AS session_id FROM staff_sessions ss JOIN staff s ON s.id = ss.staff_id
       WHERE ss.token_hash = $1 AND ss.revoked_at IS NULL AND ss.expires_at > $2`,
      [tokenHash, now],
    )
  )[0];

/** Whether the token is a live customer session (so that a staff call answers forbidden, not sign in). */
export const customerSessionExists = async (db: Sql, tokenHash: string, now: number) =>
  (
    await db.query<{ id: string }>(
      'SELECT id FROM sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2',
      [tokenHash, now],
    )
  ).length > 0;

export const revokeStaffSession = (db: Sql, sessionId: string, now: number) =>
  db.run('UPDATE staff_sessions SET revoked_at = $2 WHERE id = $1', [sessionId, now]);

export const updateStaffPassword = (db: Sql, staffId: number, hash: string) =>
  db.run('UPDATE staff SET password_hash = $2 WHERE id = $1', [staffId, hash]);

export const revokeOtherStaffSessions = (db: Sql, staffId: number, keepSessionId: string, now: number) =>
  db.run('UPDATE staff_sessions SET revoked_at = $3 WHERE staff_id = $1 AND id <> $2 AND revoked_at IS NULL', [
    staffId,
    keepSessionId,
    now,
  ]);

export const revokeAllStaffSessions = (db: Sql, staffId: number, now: number) =>
  db.run('UPDATE staff_sessions SET revoked_at = $2 WHERE staff_id = $1 AND revoked_at IS NULL', [staffId, now]);

export const countStaff = async (db: Sql) =>
  Number((await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM staff'))[0]?.n ?? 0);

export const listStaff = (db: Sql) => db.query<StaffRow>('SELECT * FROM staff ORDER BY id');

export const usernameTaken = async (db: Sql, username: string) =>
  (await db.query('SELECT id FROM staff WHERE username = $1', [username])).length > 0;

export async function insertStaff(
  db: Sql,
  s: { username: string; passwordHash: string; totpSecret: string; role: StaffRole; now: number },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    'INSERT INTO staff (username, password_hash, totp_secret, role, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [s.username, s.passwordHash, s.totpSecret, s.role, s.now],
  );
  return row!.id;
}

/** PostgreSQL only: locks the active administrators' rows until the transaction ends. */
export const lockActiveAdmins = (db: Sql) =>
  db.query(`SELECT id FROM staff WHERE role = 'admin' AND status = 1 FOR UPDATE`);

/** Disables an active staff member: 0 rows changed when there is none by that id. */
export const disableStaff = (db: Sql, id: number) =>
  db.run('UPDATE staff SET status = 0 WHERE id = $1 AND status = 1', [id]);

export const countActiveAdmins = async (db: Sql) =>
  Number(
    (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM staff WHERE role = 'admin' AND status = 1`))[0]?.n ?? 0,
  );

// --- customers, as the console lists them -------------------------------------------------------

export const countUsersByPhone = async (db: Sql, like: string) =>
  Number((await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM users WHERE phone LIKE $1', [like]))[0]?.n ?? 0);

export const listUsersByPhone = (db: Sql, like: string, limit: number, offset: number) =>
  db.query<UserRow>('SELECT * FROM users WHERE phone LIKE $1 ORDER BY id DESC LIMIT $2 OFFSET $3', [
    like,
    limit,
    offset,
  ]);
