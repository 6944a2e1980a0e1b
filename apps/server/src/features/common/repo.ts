// SQL for the captchas table. Returns plain rows; signing and checking the proof of work stays in
// captcha.ts. Each function runs on the handle its caller passes (the pool or a transaction).

import type { Sql } from '@bourse/db';

export const insertCaptcha = (db: Sql, id: string, secret: string, expiresAt: number) =>
  db.run('INSERT INTO captchas (id, secret, expires_at) VALUES ($1, $2, $3)', [id, secret, expiresAt]);

export const deleteCaptchasExpiredBefore = (db: Sql, before: number) =>
  db.run('DELETE FROM captchas WHERE expires_at < $1', [before]);

/** Marks a captcha used, once: undefined when there is none by that id or it was used already. */
export const consumeCaptcha = async (db: Sql, id: string, now: number) =>
  (
    await db.query<{ secret: string; expires_at: number }>(
      'UPDATE captchas SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING secret, expires_at',
      [id, now],
    )
  )[0];
