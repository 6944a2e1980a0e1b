// The launchpad screen's arithmetic, exact on decimal strings: how many coins an amount of USDT pays for
// at most (whole allotment units; what an undersubscribed offering would allot) and the offering's size in
// USDT. Must not: suggest an allotment: an oversubscribed offering allots less (pro rata).

const SCALE = 18;

function toUnits(text: string): bigint | null {
  const match = /^(\d+)(?:\.(\d{0,18}))?$/.exec(text.trim());
  if (!match) return null;
  return BigInt(match[1] as string) * 10n ** BigInt(SCALE) + BigInt((match[2] ?? '').padEnd(SCALE, '0') || '0');
}

function fromUnits(units: bigint, decimals: number): string {
  const whole = units / 10n ** BigInt(SCALE);
  const fraction = (units % 10n ** BigInt(SCALE)).toString().padStart(SCALE, '0').slice(0, decimals);
  return decimals > 0 ? `${whole}.${fraction}` : `${whole}`;
}

/** Coins `amount` USDT pays for at `price`, in whole `unit`s ("100", "0.10", "1" → "1000"); null if not a number. */
export function coinsFor(amount: string, price: string, unit: string): string | null {
  const a = toUnits(amount);
  const p = toUnits(price);
  const u = toUnits(unit);
  if (a === null || p === null || u === null || p === 0n || u === 0n) return null;
  // units of coins = a / p, then down to whole allotment units.
  const coins = (a * 10n ** BigInt(SCALE)) / p;
  const whole = (coins / u) * u;
  const decimals = (unit.split('.')[1] ?? '').replace(/0+$/, '').length;
  return fromUnits(whole, decimals);
}

/** cap × price, in USDT with two decimals (rounded down): the offering's size. */
export function offeringSize(cap: string, price: string): string {
  const c = toUnits(cap);
  const p = toUnits(price);
  if (c === null || p === null) return '0.00';
  return fromUnits((c * p) / 10n ** BigInt(SCALE), 2);
}

/** committed ÷ size as a percentage with one decimal (may exceed 100: oversubscribed). */
export function subscribedPct(committed: string, cap: string, price: string): string {
  const size = toUnits(offeringSize(cap, price));
  const done = toUnits(committed);
  if (!size || done === null) return '0.0';
  const tenths = (done * 1000n) / size;
  return `${tenths / 10n}.${tenths % 10n}`;
}
