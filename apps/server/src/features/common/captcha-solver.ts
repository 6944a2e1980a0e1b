// Solves a registration captcha outside a browser, as the widget does in one (altcha-lib's solver):
// for API tests, the browser tests' API shortcuts and the benchmarks, which register customers through
// the public API. Must not be used by the server itself: a captcha the server solves protects nothing.

import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

/** The widget's payload for `challenge` (base64 of {challenge, solution}), the captcha field's value. */
export async function solveCaptcha(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the captcha was not solved in time');
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}
