// Who may bid in a block trade (SPEC §6: block trades are for VIP and HNI customers). The one place the
// rule lives; the list, the detail and the bid all ask it. Today's rule: identity verified (KYC), and HNI:
// marked so by staff (block_hni), or at least the deployment's threshold (BLOCK_HNI_MIN_ASSETS) in the
// stock wallet in the offer's currency, counting funds already held for other bids; or a VIP member
// (features/vip's entitlement check). Where the deployment lists block trades in VIP_REQUIRED_FOR, only
// members qualify (HNI alone is not enough).

export type Ineligible = 'kyc' | 'not_hni' | 'not_vip';

export type EligibilityFacts = {
  kycVerified: boolean;
  /** Marked HNI by a staff member (audited). */
  markedHni: boolean;
  /** Stock-wallet balance in the currency, and the threshold, in its minor units. */
  stockBalanceMinor: bigint;
  thresholdMinor: bigint;
  /** An active VIP member (Vip.entitlement(…, 'block_trades').granted). */
  isVip: boolean;
  /** The deployment lets only VIP members bid (VIP_REQUIRED_FOR has block_trades). */
  vipRequired?: boolean;
};

/** Null when the customer may bid, else why not. */
export function blockIneligibility(f: EligibilityFacts): Ineligible | null {
  if (!f.kycVerified) return 'kyc';
  if (f.vipRequired && !f.isVip) return 'not_vip';
  if (f.isVip || f.markedHni || f.stockBalanceMinor >= f.thresholdMinor) return null;
  return 'not_hni';
}
