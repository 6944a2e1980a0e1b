// Binance's request signing (SIGNED endpoints): HMAC-SHA256, hex, keyed with the API secret, over the
// query string followed directly by the form body, without the `signature` parameter itself; and the
// timing rule: accepted if timestamp < serverTime + 1000 and serverTime − timestamp ≤ recvWindow
// (5000 by default, at most 60000).

import { createHmac } from 'node:crypto';
import { safeEqual } from '../../platform/secrets.ts';
import { binanceErrors } from './binance-errors.ts';

export const DEFAULT_RECV_WINDOW_MS = 5_000;
export const MAX_RECV_WINDOW_MS = 60_000;

export const hmacHex = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('hex');

/** The text that was signed and the signature sent, from the raw query string and raw body. */
export function signedPayload(rawQuery: string, rawBody: string): { payload: string; signature: string | null } {
  let signature: string | null = null;
  const strip = (raw: string) =>
    raw
      .split('&')
      .filter((part) => {
        if (!part.startsWith('signature=')) return true;
        const raw = part.slice('signature='.length);
        try {
          signature = decodeURIComponent(raw);
        } catch {
          signature = raw; // malformed escapes: compared as sent, and so refused as not valid
        }
        return false;
      })
      .join('&');
  return { payload: strip(rawQuery) + strip(rawBody), signature };
}

/** Throws Binance's -1102 or -1022 unless `signature` is the HMAC of `payload` under `secret`. */
export function checkSignature(secret: string, payload: string, signature: string | null): void {
  if (!signature) throw binanceErrors.mandatory('signature');
  if (!safeEqual(hmacHex(secret, payload), signature.toLowerCase())) throw binanceErrors.badSignature();
}

/** Throws Binance's -1102, -1131 or -1021 unless the request is within its receive window at `now`. */
export function checkTimestamp(params: URLSearchParams, now: number): void {
  const timestamp = params.get('timestamp');
  if (!timestamp || !/^\d{1,16}$/.test(timestamp)) throw binanceErrors.mandatory('timestamp');
  const window = params.get('recvWindow');
  let recvWindow = DEFAULT_RECV_WINDOW_MS;
  if (window !== null) {
    if (!/^\d{1,16}$/.test(window)) throw binanceErrors.mandatory('recvWindow');
    recvWindow = Number(window);
    if (recvWindow > MAX_RECV_WINDOW_MS) throw binanceErrors.badRecvWindow();
  }
  const sentAt = Number(timestamp);
  if (sentAt >= now + 1_000) throw binanceErrors.timestampAhead();
  if (now - sentAt > recvWindow) throw binanceErrors.timestampOutside();
}
