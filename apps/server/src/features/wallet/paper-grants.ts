// Paper mode: a new customer starts with virtual funds in each stock-market currency (stock wallet) and
// in USDT (spot wallet, for the crypto exchange). The money comes from the platform's `faucet` account by
// an ordinary ledger transfer (cause paper_grant), so the user sees exactly where it came from.
// Idempotent per user and asset: granting twice changes nothing.

import type { TradingEngine } from '../../engine-host/trading-engine.ts';

export type PaperGrant = { wallet: 'stock' | 'spot'; asset: string; amount: string };

export const PAPER_GRANTS: readonly PaperGrant[] = [
  { wallet: 'stock', asset: 'INR', amount: '1000000.00' },
  { wallet: 'stock', asset: 'USD', amount: '10000.00' },
  { wallet: 'stock', asset: 'BRL', amount: '50000.00' },
  { wallet: 'spot', asset: 'USDT', amount: '10000.00' },
];

export async function grantPaperFunds(
  engine: TradingEngine,
  userId: number,
  grants: readonly PaperGrant[] = PAPER_GRANTS,
): Promise<void> {
  for (const { wallet, asset, amount } of grants) {
    const result = await engine.submit({
      type: 'deposit',
      // The id names the asset only: each asset is granted in one wallet.
      id: `paper-grant:${userId}:${asset}`,
      userId: String(userId),
      wallet,
      asset,
      amount,
      from: 'faucet',
      cause: 'paper_grant',
      link: `user:${userId}`,
    });
    if (!result.ok && result.code !== 'command_id_reused') throw new Error(`paper grant failed: ${result.code}`);
  }
}
