// What every sandbox payout rail shares: its own record of payouts (sandbox_payouts), keyed by the
// idempotency key as a real provider's is. The first request with a key decides the outcome; the same
// key asked again answers that outcome and pays nothing more. Paper mode only (app.ts wires it).

import { createHash } from 'node:crypto';
import type { Db } from '@bourse/db';
import type { PayoutOutcome, PayoutRequest } from '../../../features/withdrawals/payout-rail.ts';

export type SandboxPayoutRow = {
  idempotency_key: string;
  rail: string;
  asset: string;
  amount: string;
  payout_to: string;
  provider_ref: string;
  outcome: 'paid' | 'failed';
  reason: string;
  created_at: number;
};

/** Records the payout under its key unless the key is known, and answers the key's first outcome. */
export async function payOnce(
  db: Db,
  now: number,
  request: PayoutRequest,
  decide: () => { outcome: 'paid'; providerRef: string } | { outcome: 'failed'; reason: string },
): Promise<PayoutOutcome> {
  const decision = decide();
  await db.run(
    `INSERT INTO sandbox_payouts (idempotency_key, rail, asset, amount, payout_to, provider_ref, outcome, reason, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (idempotency_key) DO NOTHING`,
    [
      request.idempotencyKey,
      request.rail,
      request.asset,
      request.amount,
      request.payoutTo,
      decision.outcome === 'paid' ? decision.providerRef : '',
      decision.outcome,
      decision.outcome === 'failed' ? decision.reason : '',
      now,
    ],
  );
  const row = (
    await db.query<SandboxPayoutRow>('SELECT * FROM sandbox_payouts WHERE idempotency_key = $1', [
      request.idempotencyKey,
    ])
  )[0]!;
  return row.outcome === 'paid'
    ? { outcome: 'paid', providerRef: row.provider_ref }
    : { outcome: 'failed', reason: row.reason };
}

/** Every payout the sandbox rails made, oldest first (the crash test counts them). */
export async function sandboxPayouts(db: Db): Promise<SandboxPayoutRow[]> {
  return (await db.query<SandboxPayoutRow>('SELECT * FROM sandbox_payouts ORDER BY created_at, idempotency_key')).map(
    (r) => ({ ...r, created_at: Number(r.created_at) }),
  );
}

/** A stable made-up reference for a key: the same key always gets the same one. */
export function sandboxRef(prefix: string, key: string, hexDigits = 16): string {
  return prefix + createHash('sha256').update(key).digest('hex').slice(0, hexDigits);
}
