// Exact arithmetic of the order sheet: premium = ask per unit × multiplier × contracts, in the currency's
// minor units (bigint), the breakeven and the series code's parts. The server prices; this only multiplies
// what it quoted, so the sheet shows to the paisa what the server will take.
import { formatDecimal, tryParseDecimal } from '@bourse/money';

const SCALE = 2;

export function minorOf(text: string | null | undefined): bigint | null {
  if (text === null || text === undefined) return null;
  const parsed = tryParseDecimal(text, SCALE);
  return parsed.ok ? parsed.minor : null;
}

/** The premium of `contracts` at `askPerUnit` (null when either is not a valid amount). */
export function premiumOf(askPerUnit: string, multiplier: number, contracts: number): string | null {
  const ask = minorOf(askPerUnit);
  if (ask === null || !Number.isSafeInteger(contracts) || contracts < 1) return null;
  return formatDecimal(ask * BigInt(multiplier) * BigInt(contracts), SCALE);
}

/** Whole contracts typed in the stepper, or null. */
export function parseContracts(text: string): number | null {
  if (!/^\d{1,4}$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= 1 && n <= 1_000 ? n : null;
}

/** "NSE:NIFTY50/2026-01-09/C/26000.00" → its parts (null when malformed). */
export function seriesParts(
  series: string,
): { underlying: string; expiry: string; right: 'call' | 'put'; strike: string } | null {
  const m = /^([^/]+)\/(\d{4}-\d{2}-\d{2})\/([CP])\/(\d+(?:\.\d+)?)$/.exec(series);
  if (!m) return null;
  return {
    underlying: m[1] as string,
    expiry: m[2] as string,
    right: m[3] === 'C' ? 'call' : 'put',
    strike: m[4] as string,
  };
}

/** a ≥ b for decimal amounts. */
export function isAtLeast(a: string, b: string): boolean {
  const x = minorOf(a);
  const y = minorOf(b);
  return x !== null && y !== null && x >= y;
}

/**
 * How far a quote may move between the screen and the server before the order is refused (5%): an
 * option's premium moves several times as much as its underlying, so a tighter band refused most orders.
 */
export const PRICE_PROTECTION_BPS = 500n;

/** The most a buyer agrees to pay: the shown premium plus the protection, rounded up to the cent. */
export function atMost(amount: string): string | null {
  const minor = minorOf(amount);
  if (minor === null) return null;
  return formatDecimal((minor * (10_000n + PRICE_PROTECTION_BPS) + 9_999n) / 10_000n, SCALE);
}

/** The least a seller agrees to receive: the shown value less the protection, rounded down to the cent. */
export function atLeast(amount: string): string | null {
  const minor = minorOf(amount);
  if (minor === null) return null;
  return formatDecimal((minor * (10_000n - PRICE_PROTECTION_BPS)) / 10_000n, SCALE);
}
