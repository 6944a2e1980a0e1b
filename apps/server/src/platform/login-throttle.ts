// Sign-in back-off per account (OWASP ASVS): at most 100 failures an hour, and after 5 failures in a
// row within 15 minutes each further attempt must wait 2^(n-5) seconds (capped at 15 minutes).
// Failures are rows, so the limit holds across restarts and across API processes.

import type { Sql } from '@bourse/db';
import { AppError } from '../http/app-error.ts';

export const MAX_FAILURES_PER_HOUR = 100;
const FREE_FAILURES = 5;
const STREAK_WINDOW_MS = 15 * 60_000;
const MAX_WAIT_MS = 15 * 60_000;

export async function checkLoginAllowed(db: Sql, subject: string, now: number): Promise<void> {
  const rows = await db.query<{ at: number }>(
    'SELECT at FROM login_failures WHERE subject = $1 AND at > $2 ORDER BY at DESC LIMIT $3',
    [subject, now - 3_600_000, MAX_FAILURES_PER_HOUR],
  );
  if (rows.length >= MAX_FAILURES_PER_HOUR) throw new AppError('too_many_attempts');
  const streak = rows.filter((r) => r.at > now - STREAK_WINDOW_MS).length;
  if (streak >= FREE_FAILURES) {
    const waitMs = Math.min(2 ** (streak - FREE_FAILURES) * 1000, MAX_WAIT_MS);
    if (now < rows[0]!.at + waitMs) throw new AppError('too_many_attempts');
  }
}

export async function recordLoginFailure(db: Sql, subject: string, now: number): Promise<void> {
  await db.run('INSERT INTO login_failures (subject, at) VALUES ($1, $2)', [subject, now]);
  await db.run('DELETE FROM login_failures WHERE subject = $1 AND at < $2', [subject, now - 3_600_000]);
}

export async function clearLoginFailures(db: Sql, subject: string): Promise<void> {
  await db.run('DELETE FROM login_failures WHERE subject = $1', [subject]);
}
