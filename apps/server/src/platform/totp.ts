// Time-based one-time passwords (RFC 6238) through the otpauth library, for customer two-factor
// sign-in and staff sign-in. A code is accepted one step either side of now for clock drift.

import * as OTPAuth from 'otpauth';

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totpFor(secret: string, label: string, issuer: string) {
  return new OTPAuth.TOTP({ issuer, label, secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
}

export function totpUrl(secret: string, label: string, issuer: string): string {
  return totpFor(secret, label, issuer).toString();
}

export function checkTotp(secret: string, code: string, nowMs: number): boolean {
  return totpStepOf(secret, code, nowMs) !== null;
}

/**
 * The time step (the 30-second counter) of a valid code that is newer than `lastStep`, the step of the
 * last code that signed in; null otherwise. Signing in keeps that step, so that each code signs in once
 * (RFC 6238 §5.2): the claim is `UPDATE … SET totp_last_step = step WHERE … AND totp_last_step < step`.
 */
export function freshTotpStep(secret: string, code: string, nowMs: number, lastStep: number): number | null {
  const step = totpStepOf(secret, code, nowMs);
  return step !== null && step > lastStep ? step : null;
}

/** The time step of a valid code, one step either side of now; null if the code is not valid. */
function totpStepOf(secret: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret, 'x', 'x').validate({ token: code, timestamp: nowMs, window: 1 });
  return delta === null ? null : Math.floor(nowMs / 30_000) + delta;
}

export function totpNow(secret: string, nowMs: number): string {
  return totpFor(secret, 'x', 'x').generate({ timestamp: nowMs });
}
