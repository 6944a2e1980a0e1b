// Pure sums for the assets screen: the customer's cash per currency across wallets, and balances grouped
// by wallet. Exact decimal strings in and out (@bourse/money); shares are holdings, never summed as cash.
import type { BalanceView } from '@bourse/contract';
import { sumDecimals } from '@bourse/money';

export type CurrencyTotal = { currency: string; balance: string; available: string; held: string };

const currencyOrder = ['INR', 'USD', 'BRL'];
const rank = (code: string) => {
  const i = currencyOrder.indexOf(code);
  return i === -1 ? currencyOrder.length : i;
};
const byCurrency = (a: string, b: string) => rank(a) - rank(b) || a.localeCompare(b);

export const isShare = (asset: string) => asset.startsWith('SHARE:');

/** Cash per currency summed over every wallet, INR, USD and BRL first. */
export function totalsByCurrency(balances: readonly BalanceView[]): CurrencyTotal[] {
  const cash = balances.filter((b) => !isShare(b.asset));
  return [...new Set(cash.map((b) => b.asset))].sort(byCurrency).map((currency) => {
    const own = cash.filter((b) => b.asset === currency);
    return {
      currency,
      balance: sumDecimals(own.map((b) => b.balance)),
      available: sumDecimals(own.map((b) => b.available)),
      held: sumDecimals(own.map((b) => b.held)),
    };
  });
}

/** Balances grouped by wallet (wallets by name), cash before shares inside each. */
export function byWallet(balances: readonly BalanceView[]): { wallet: string; items: BalanceView[] }[] {
  const wallets = [...new Set(balances.map((b) => b.wallet))].sort();
  return wallets.map((wallet) => ({
    wallet,
    items: balances
      .filter((b) => b.wallet === wallet)
      .sort((a, b) => Number(isShare(a.asset)) - Number(isShare(b.asset)) || byCurrency(a.asset, b.asset)),
  }));
}
