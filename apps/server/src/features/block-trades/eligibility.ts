// Who may bid in a block trade (SPEC §6: block trades are for VIP and HNI customers). The one place the
// rule lives; the list, the detail and the bid all ask it. Today's rule: identity verified (KYC), and HNI:
// marked so by staff (block_hni), or at least the deployment's threshold (BLOCK_HNI_MIN_ASSETS) in the
// stock wallet in the offer's currency, counting funds already held for other bids. VIP membership is a
// later issue: `isVip` is its hook and answers false until then.

export type Ineligible = 'kyc' | 'not_hni';

export type EligibilityFacts = {
  kycVerified: boolean;
  /** Marked HNI by a staff member (audited). */
  markedHni: boolean;
  /** Stock-wallet balance in the currency, and the threshold, in its minor units. */
  stockBalanceMinor: bigint;
  thresholdMinor: bigint;
  /** VIP membership (a later issue). */
  isVip: boolean;
};

/** Null when the customer may bid, else why not. */
export function blockIneligibility(f: EligibilityFacts): Ineligible | null {
  if (!f.kycVerified) return 'kyc';
  if (f.isVip || f.markedHni || f.stockBalanceMinor >= f.thresholdMinor) return null;
  return 'not_hni';
}
