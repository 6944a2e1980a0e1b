// Sandbox blockchain payout rail (paper mode): "broadcasts" to no network, records each payout by its
// idempotency key (sandbox-payout-ledger.ts) and answers a made-up transaction hash in the network's
// format, the same hash for the same key.

import type { Db } from '@bourse/db';
import type { PayoutRail, PayoutRequest } from '../../../features/withdrawals/payout-rail.ts';
import type { Clock } from '../../../platform/clock.ts';
import { payOnce, sandboxRef } from '../../payments/sandbox/sandbox-payout-ledger.ts';

export class SandboxChainPayouts implements PayoutRail {
  readonly name = 'sandbox-chain';
  readonly #db: Db;
  readonly #clock: Clock;
  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  pay(request: PayoutRequest) {
    return payOnce(this.#db, this.#clock.now(), request, () => ({
      outcome: 'paid',
      // A Bitcoin txid is 64 hex digits; an EVM transaction hash is 0x and 64 hex digits.
      providerRef: sandboxRef(request.network === 'BTC' ? '' : '0x', request.idempotencyKey, 64),
    }));
  }
}
