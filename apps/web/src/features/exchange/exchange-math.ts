// Pure helpers of the exchange screens: which currencies can be exchanged into which (each pair is
// against USD, as the server quotes), and how much of a quote's validity is left on this device's
// clock (measured from when the quote arrived, so a device clock that is off does not matter).

export const CURRENCIES = ['USD', 'BRL', 'INR'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** The currencies `from` can be exchanged into. */
export function targetsOf(from: string): Currency[] {
  return from === 'USD' ? ['BRL', 'INR'] : ['USD'];
}

/** The currencies that can be exchanged into `to`. */
export function sourcesOf(to: string): Currency[] {
  return to === 'USD' ? ['BRL', 'INR'] : ['USD'];
}

/** Whole seconds of validity left (0 once expired). */
export function secondsLeft(quote: { createdAt: number; expiresAt: number }, receivedAtMs: number, nowMs: number) {
  // A render that read the clock just before the quote arrived must not count more than the validity.
  const elapsedMs = Math.max(0, nowMs - receivedAtMs);
  const leftMs = quote.expiresAt - quote.createdAt - elapsedMs;
  return Math.max(0, Math.ceil(leftMs / 1000));
}

/** Basis points as a percentage with two decimals: 50 → "0.50". */
export function bpsAsPercent(bps: number): string {
  return `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;
}
