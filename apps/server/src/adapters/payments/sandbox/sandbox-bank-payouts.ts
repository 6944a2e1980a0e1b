// Sandbox bank-transfer and PIX payout rails (paper mode): they move no real money, record each payout
// by its idempotency key (sandbox-payout-ledger.ts) and answer like a provider would. To show the failed
// path, a bank account number ending in 0000 is refused as closed by the receiving bank.

import type { Db } from '@bourse/db';
import type { PayoutRail, PayoutRequest } from '../../../features/withdrawals/payout-rail.ts';
import type { Clock } from '../../../platform/clock.ts';
import { payOnce, sandboxRef } from './sandbox-payout-ledger.ts';

export const SANDBOX_CLOSED_ACCOUNT_SUFFIX = '0000';

export class SandboxBankPayouts implements PayoutRail {
  readonly name: string;
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #kind: 'bank' | 'pix';
  constructor(db: Db, clock: Clock, kind: 'bank' | 'pix') {
    this.#db = db;
    this.#clock = clock;
    this.#kind = kind;
    this.name = `sandbox-${kind}`;
  }

  pay(request: PayoutRequest) {
    return payOnce(this.#db, this.#clock.now(), request, () => {
      const to = JSON.parse(request.payoutTo) as { accountNumber?: string; pixKey?: string };
      if (this.#kind === 'bank' && to.accountNumber?.replace(/\D/g, '').endsWith(SANDBOX_CLOSED_ACCOUNT_SUFFIX))
        return { outcome: 'failed', reason: 'The receiving bank refused the transfer: the account is closed' };
      // A PIX end-to-end id starts with E; a bank transfer gets a UTR-like reference.
      return {
        outcome: 'paid',
        providerRef:
          this.#kind === 'pix'
            ? sandboxRef('E', request.idempotencyKey, 31).toUpperCase()
            : sandboxRef('SBXUTR', request.idempotencyKey, 12).toUpperCase(),
      };
    });
  }
}
