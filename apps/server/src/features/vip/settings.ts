// VIP settings a deployment chooses: VIP_TRIAL_DAYS, VIP_PRICES (per currency, per 30 days, decimal
// strings) and VIP_REQUIRED_FOR (the features only members may use). The default gates only `advice`,
// so no line that existed before VIP changes for non-members.

import { VIP_FEATURES, type VipFeature } from '@bourse/contract';

export type VipSettings = {
  trialDays: number;
  /** Currency → price of 30 days, a decimal string in the currency's units. */
  pricePer30Days: Record<string, string>;
  requiredFor: ReadonlySet<VipFeature>;
};

export const DEFAULT_VIP_PRICES: Record<string, string> = { INR: '499.00', USD: '9.99', BRL: '29.90' };

export function loadVipSettings(env: Record<string, string | undefined>): VipSettings {
  const trialRaw = env.VIP_TRIAL_DAYS?.trim() || '7';
  const trialDays = Number(trialRaw);
  if (!Number.isSafeInteger(trialDays) || trialDays < 0 || trialDays > 365)
    throw new Error(`VIP_TRIAL_DAYS must be a whole number from 0 to 365, not "${trialRaw}"`);
  const pricePer30Days = { ...DEFAULT_VIP_PRICES };
  for (const part of (env.VIP_PRICES ?? '').split(',').filter((p) => p.trim())) {
    const [currency, amount] = part.split(':').map((p) => p.trim());
    if (!currency || !amount || !/^\d+(\.\d+)?$/.test(amount)) throw new Error(`bad VIP_PRICES entry "${part}"`);
    // A price of 0 takes the currency off sale (membership is not given away outside the trial).
    if (/^0+(\.0+)?$/.test(amount)) delete pricePer30Days[currency.toUpperCase()];
    else pricePer30Days[currency.toUpperCase()] = amount;
  }
  const raw = env.VIP_REQUIRED_FOR;
  const listed =
    raw === undefined
      ? ['advice']
      : raw
          .split(',')
          .map((p) => p.trim().toLowerCase())
          .filter(Boolean);
  for (const f of listed) {
    if (!(VIP_FEATURES as readonly string[]).includes(f))
      throw new Error(`VIP_REQUIRED_FOR: unknown feature "${f}" (one of ${VIP_FEATURES.join(', ')})`);
  }
  return { trialDays, pricePer30Days, requiredFor: new Set(listed as VipFeature[]) };
}
