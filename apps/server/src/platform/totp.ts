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
  if (!/^\d{6}$/.test(code)) return false;
  return totpFor(secret, 'x', 'x').validate({ token: code, timestamp: nowMs, window: 1 }) !== null;
}

export function totpNow(secret: string, nowMs: number): string {
  return totpFor(secret, 'x', 'x').generate({ timestamp: nowMs });
}
