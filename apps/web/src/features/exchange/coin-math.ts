// Pure helpers of the crypto convert and transfer screens: how many decimals a coin amount shows, whether
// a typed amount can be sent, the other coin wallet, and a fresh idempotency key for one transfer.

import type { CoinBalanceView, CoinWallet } from '@bourse/contract';

/** Decimals a coin amount is shown with: the ones it has, at least two and at most eight. */
export function coinDigits(value: string): number {
  const fraction = value.split('.')[1]?.replace(/0+$/, '') ?? '';
  return Math.min(8, Math.max(2, fraction.length));
}

/** A positive decimal as the server takes it (up to 18 decimals; the coin's own scale is checked there). */
export function isCoinAmount(text: string): boolean {
  return /^\d{1,20}(\.\d{1,18})?$/.test(text) && /[1-9]/.test(text);
}

/** What a typed amount becomes: trimmed, with a comma read as the decimal point. */
export function typedAmount(text: string): string {
  return text.replace(',', '.').trim();
}

export function otherWallet(wallet: CoinWallet): CoinWallet {
  return wallet === 'spot' ? 'contract' : 'spot';
}

/** The coins a wallet can send: those with something available, USDT always (listed first by the server). */
export function sendableCoins(balances: readonly CoinBalanceView[]): string[] {
  return balances.filter((b) => b.asset === 'USDT' || /[1-9]/.test(b.available)).map((b) => b.asset);
}

/** An available amount without its trailing zeros ("12.500000" → "12.5"), as "Max" fills it in. */
export function trimAmount(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** A new idempotency key: a retry of the same submission sends the same one. */
export function newClientId(): string {
  return `web-${crypto.randomUUID()}`;
}
