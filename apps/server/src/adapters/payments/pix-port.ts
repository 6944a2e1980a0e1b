// The PIX port: how the deposits feature asks a PIX provider (a bank or payment institution, "PSP") for a
// dynamic charge, and how it reads the provider's payment notifications. Both follow the Brazilian
// Central Bank's standard PIX API (API Pix, BCB): a charge is `PUT /v2/cob/{txid}`, a notification is
// `{"pix":[{"endToEndId","txid","valor","horario",…}]}`. Every notification is signed (HMAC-SHA256
// over the raw body with a shared secret); verifyPixSignature is the one check, used for every provider.

import { createHmac, timingSafeEqual } from 'node:crypto';

/** A charge to create: the amount as the API writes it (decimal string, 2 places). */
export type PixChargeRequest = { txid: string; amount: string; expiresInSec: number; description: string };
/** What the provider answers: the payload location (for the dynamic BR Code) and, if it made one, the code. */
export type PixCharge = { txid: string; location: string; brCode: string | null };
/** One payment received, as a notification lists it. */
export type PixPayment = { endToEndId: string; txid: string; amount: string; paidAt: string };

export interface PixProvider {
  readonly name: string;
  createCharge(request: PixChargeRequest): Promise<PixCharge>;
}

/** The header carrying `sha256=<hex HMAC of the raw body>`. */
export const PIX_SIGNATURE_HEADER = 'x-pix-signature';

export function signPixBody(rawBody: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

/** Constant-time comparison of the given signature with the expected one; false without a secret. */
export function verifyPixSignature(rawBody: string, signature: string | undefined, secret: string): boolean {
  if (!secret || typeof signature !== 'string') return false;
  const expected = Buffer.from(signPixBody(rawBody, secret));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const AMOUNT = /^\d{1,10}\.\d{2}$/;

/**
 * The payments of a notification body (BCB's webhook format), or null when it is not one: every entry
 * needs endToEndId, a txid of 26–35 letters and digits, valor with two decimals, and horario.
 */
export function parsePixNotification(body: unknown): PixPayment[] | null {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { pix?: unknown }).pix)) return null;
  const out: PixPayment[] = [];
  for (const entry of (body as { pix: unknown[] }).pix) {
    const e = entry as Record<string, unknown>;
    if (
      typeof e.endToEndId !== 'string' ||
      typeof e.txid !== 'string' ||
      !TXID.test(e.txid) ||
      typeof e.valor !== 'string' ||
      !AMOUNT.test(e.valor) ||
      typeof e.horario !== 'string'
    )
      return null;
    out.push({ endToEndId: e.endToEndId, txid: e.txid, amount: e.valor, paidAt: e.horario });
  }
  return out.length > 0 ? out : null;
}
