// The registration captcha: an ALTCHA proof of work (altcha-lib), solved by the customer's browser in
// the background instead of read from an image. Holds: each challenge is signed with its own random
// secret kept in its row, expires, and is good for one attempt only (right or wrong), so a solution
// cannot be replayed; must not: keep a secret outside the database (any API process can check any row).

import type { Sql } from '@bourse/db';
import { type Challenge, createChallenge, type Payload, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { CaptchaWork } from '../../config.ts';
import { fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { newId, newToken } from '../../platform/secrets.ts';
import * as repo from './repo.ts';

export const CAPTCHA_TTL_MS = 5 * 60_000;
/** PBKDF2 over SHA-256: the browser's Web Crypto derives it natively, so a phone solves it in its workers. */
export const CAPTCHA_ALGORITHM = 'PBKDF2/SHA-256';

export class Captchas {
  readonly #db: Sql;
  readonly #clock: Clock;
  readonly #work: CaptchaWork;

  constructor(db: Sql, clock: Clock, work: CaptchaWork) {
    this.#db = db;
    this.#clock = clock;
    this.#work = work;
  }

  async create(): Promise<{ captchaId: string; challenge: Challenge }> {
    const captchaId = newId();
    const secret = newToken();
    // The answer is a try number from the upper half, so no challenge is solved by luck in a few tries.
    const challenge = await createChallenge({
      algorithm: CAPTCHA_ALGORITHM,
      cost: this.#work.cost,
      counter: randomInt(this.#work.tries, Math.ceil(this.#work.tries / 2)),
      deriveKey,
      data: { captchaId },
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: secret,
    });
    const now = this.#clock.now();
    await repo.insertCaptcha(this.#db, captchaId, secret, now + CAPTCHA_TTL_MS);
    // Old captchas are removed as new ones are made, so the table stays small without a job.
    await repo.deleteCaptchasExpiredBefore(this.#db, now - CAPTCHA_TTL_MS);
    return { captchaId, challenge };
  }

  /**
   * Consumes the captcha (one attempt) and throws captcha_incorrect / captcha_expired on failure.
   * `solution` is the widget's payload: base64 of {challenge, solution}.
   */
  async consume(db: Sql, captchaId: string, solution: string): Promise<void> {
    const now = this.#clock.now();
    const row = await repo.consumeCaptcha(db, captchaId, now);
    if (!row) throw fieldError('captchaCode', 'captcha_incorrect');
    if (Number(row.expires_at) < now) throw fieldError('captchaCode', 'captcha_expired');
    const payload = readPayload(solution);
    // The signature covers the parameters, data included: a solution to another captcha fails it.
    if (!payload || payload.challenge.parameters.data?.captchaId !== captchaId)
      throw fieldError('captchaCode', 'captcha_incorrect');
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: row.secret,
      hmacKeySignatureSecret: row.secret,
    }).catch(() => null);
    if (!result?.verified) throw fieldError('captchaCode', 'captcha_incorrect');
  }
}

/** The widget's payload, or null when it is not one (anything a client sends is read with care). */
function readPayload(text: string): Payload | null {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Payload;
    const { challenge, solution } = value ?? {};
    if (typeof challenge?.parameters !== 'object' || challenge.parameters === null) return null;
    if (typeof challenge.signature !== 'string') return null;
    if (!Number.isSafeInteger(solution?.counter) || typeof solution?.derivedKey !== 'string') return null;
    if (challenge.parameters.algorithm !== CAPTCHA_ALGORITHM) return null;
    return value;
  } catch {
    return null;
  }
}
