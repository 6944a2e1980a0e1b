// Hashing and random tokens. Passwords and PINs use argon2id at OWASP's baseline or stronger
// (m = 19 MiB, t = 2, p = 1); bearer tokens are 256 random bits stored only as SHA-256.

import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';

const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (plain: string) => argon2.hash(plain, ARGON2_OPTIONS);

export async function verifyPassword(hash: string | null | undefined, plain: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

/** A hash to burn the same time as a real verification when the account does not exist. */
let decoyHash: Promise<string> | undefined;
export async function verifyDecoy(plain: string): Promise<false> {
  decoyHash ??= hashPassword('decoy-password-for-timing');
  await verifyPassword(await decoyHash, plain);
  return false;
}

export const newToken = () => randomBytes(32).toString('base64url');
export const newId = (bytes = 16) => randomBytes(bytes).toString('hex');
// One-shot hash(): no Hash object per call (every authenticated request hashes its bearer token).
export const sha256 = (value: string) => hash('sha256', value, 'hex');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function newInviteCode(length = 8): string {
  const bytes = randomBytes(length);
  let code = '';
  for (const b of bytes) code += INVITE_ALPHABET[b % INVITE_ALPHABET.length];
  return code;
}
