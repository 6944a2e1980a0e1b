// The port every payout rail implements (bank transfer, PIX, a blockchain). Owned by the withdrawals
// feature, which calls it from the payout outbox; adapters live in adapters/payments/… and adapters/chain/….
// Must hold: a rail dedupes by idempotencyKey, as real providers do: the same key asked again answers the
// first outcome and never pays twice. This is what makes the outbox's retries after a crash safe.

import type { WithdrawalRail } from '@bourse/contract';

export type PayoutRequest = {
  /** Derived from the withdrawal id (payoutKey): the same withdrawal always asks with the same key. */
  idempotencyKey: string;
  rail: WithdrawalRail;
  asset: string;
  network: string | null;
  /** What the recipient gets: the amount less the fee, a decimal string at the asset's scale. */
  amount: string;
  /** Where it goes, as the rail needs it (JSON of the bank account, the PIX key or the address). */
  payoutTo: string;
};

export type PayoutOutcome =
  | { outcome: 'paid'; providerRef: string }
  /** The provider refused for good (a closed account, an address it will not pay): the funds go back. */
  | { outcome: 'failed'; reason: string };

export type PayoutRail = {
  readonly name: string;
  /** Throws when the provider could not be reached: the outbox retries later with the same key. */
  pay(request: PayoutRequest): Promise<PayoutOutcome>;
};

/** The rails by kind; paper mode wires the sandbox ones (app.ts). */
export type PayoutRails = Readonly<Record<WithdrawalRail, PayoutRail>>;

/** The idempotency key of a withdrawal's payout: one per withdrawal, for ever. */
export function payoutKey(withdrawalId: number): string {
  return `withdrawal-payout-${withdrawalId}`;
}

/** A rail with no provider wired (live mode until one is): every call fails, so the outbox keeps the payout. */
export function unconfiguredRail(name: string): PayoutRail {
  return {
    name,
    pay: async () => {
      throw new Error(`no live payout provider is configured for ${name}`);
    },
  };
}
