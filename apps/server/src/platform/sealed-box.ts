// Secrets the server must read back (API key secrets, to recompute request HMACs) are sealed with
// AES-256-GCM under a server key: the database alone does not give them away, and a sealed value that
// was altered, or sealed under another key, fails to open rather than yielding a wrong secret.

import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

export type SealingKey = Buffer;

const VERSION = 'v1';

/** A 32-byte key from 64 hex characters (API_KEY_ENCRYPTION_KEY); anything else stops start-up. */
export function sealingKeyFromHex(hex: string): SealingKey {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('API_KEY_ENCRYPTION_KEY must be 64 hex characters (32 bytes)');
  return Buffer.from(hex, 'hex');
}

/** Paper mode's default key, derived from a fixed label: virtual money only, documented as such. */
export const paperSealingKey = (): SealingKey =>
  Buffer.from(hash('sha256', 'bourse-paper-api-key-sealing', 'hex'), 'hex');

/** "v1.<iv>.<tag>.<ciphertext>", each part base64url; `context` (the key's public id) is bound in as AAD. */
export function seal(key: SealingKey, plain: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plain text, or null if the value was altered, sealed under another key or for another context. */
export function unseal(key: SealingKey, sealed: string, context: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) return null;
  try {
    const nonce = Buffer.from(iv, 'base64url');
    const authTag = Buffer.from(tag, 'base64url');
    // Only the full 16-byte tag is accepted (GCM would otherwise verify a truncated one).
    if (nonce.length !== 12 || authTag.length !== 16) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: 16 });
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(authTag);
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
