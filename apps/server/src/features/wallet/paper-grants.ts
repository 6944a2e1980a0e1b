// Paper mode: a new customer starts with virtual funds in each stock-market currency. The money comes
// from the platform's `faucet` account by an ordinary ledger transfer (cause paper_grant), so the user
// sees exactly where it came from. Idempotent per user and asset: granting twice changes nothing.

import type { TradingEngine } from '../../engine-host/trading-engine.ts';

export const PAPER_GRANTS = { INR: '1000000.00', USD: '10000.00', BRL: '50000.00' } as const;

export async function grantPaperFunds(engine: TradingEngine, userId: number): Promise<void> {
  for (const [asset, amount] of Object.entries(PAPER_GRANTS)) {
    const result = await engine.submit({
      type: 'deposit',
      id: `paper-grant:${userId}:${asset}`,
      userId: String(userId),
      wallet: 'stock',
      asset,
      amount,
      from: 'faucet',
      cause: 'paper_grant',
      link: `user:${userId}`,
    });
    if (!result.ok && result.code !== 'command_id_reused') throw new Error(`paper grant failed: ${result.code}`);
  }
}
