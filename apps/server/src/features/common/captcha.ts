// Image captchas: an SVG drawn by svg-captcha, whose answer is stored hashed with an expiry and is
// good for one attempt only (right or wrong), so a captcha cannot be replayed or brute-forced.

import type { Sql } from '@bourse/db';
import svgCaptcha from 'svg-captcha';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { newId, safeEqual, sha256 } from '../../platform/secrets.ts';

export const CAPTCHA_TTL_MS = 5 * 60_000;

export class Captchas {
  readonly #db: Sql;
  readonly #clock: Clock;
  /** Answers kept in memory only when test hooks are on (paper mode), for browser tests. */
  readonly #testAnswers: Map<string, string> | null;

  constructor(db: Sql, clock: Clock, keepAnswersForTests: boolean) {
    this.#db = db;
    this.#clock = clock;
    this.#testAnswers = keepAnswersForTests ? new Map() : null;
  }

  async create(): Promise<{ captchaId: string; svg: string }> {
    const { text, data } = svgCaptcha.create({
      size: 4,
      ignoreChars: '0oO1ilI',
      noise: 2,
      color: true,
      background: '#f3f5f7',
      width: 120,
      height: 44,
    });
    const captchaId = newId();
    const now = this.#clock.now();
    await this.#db.run('INSERT INTO captchas (id, answer_hash, expires_at) VALUES ($1, $2, $3)', [
      captchaId,
      sha256(`${captchaId}:${text.toLowerCase()}`),
      now + CAPTCHA_TTL_MS,
    ]);
    // Old captchas are removed as new ones are made, so the table stays small without a job.
    await this.#db.run('DELETE FROM captchas WHERE expires_at < $1', [now - CAPTCHA_TTL_MS]);
    this.#testAnswers?.set(captchaId, text);
    return { captchaId, svg: data };
  }

  /** Consumes the captcha (one attempt) and throws captcha_incorrect / captcha_expired on failure. */
  async consume(db: Sql, captchaId: string, answer: string): Promise<void> {
    const now = this.#clock.now();
    const rows = await db.query<{ answer_hash: string; expires_at: number }>(
      'UPDATE captchas SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING answer_hash, expires_at',
      [captchaId, now],
    );
    const row = rows[0];
    if (!row) throw fieldError('captchaCode', 'captcha_incorrect');
    if (row.expires_at < now) throw fieldError('captchaCode', 'captcha_expired');
    if (!safeEqual(row.answer_hash, sha256(`${captchaId}:${answer.trim().toLowerCase()}`))) {
      throw fieldError('captchaCode', 'captcha_incorrect');
    }
  }

  testAnswer(captchaId: string): string {
    const answer = this.#testAnswers?.get(captchaId);
    if (!answer) throw new AppError('not_found');
    return answer;
  }
}
