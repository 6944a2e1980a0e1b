// Shapes of VIP membership (issue 28 item 3; SPEC stock/vip, /user/vip/get, /user/vip/buy): a free trial
// once per customer, then paid periods in a currency the deployment prices (per 30 days), each period a
// row; what membership unlocks, asked through one entitlement check; the stock-strategy switch staff set;
// and the trading-advice posts (educational content, labelled so). Holds: amounts as decimal strings,
// times epoch milliseconds. Must not: promise returns, or carry anything that moves a price.

import { z } from 'zod';
import { isPlainText, pin, recordId, text } from './fields.ts';
import { actionReason } from './staff.ts';

/** What membership can unlock (SPEC §6), and the staff-enabled stock strategy. */
export const VIP_FEATURES = ['advice', 'block_trades', 'us_stocks', 'short_term', 'options', 'strategy'] as const;
export type VipFeature = (typeof VIP_FEATURES)[number];

/** A period's kind, and its state (vip_period_transitions). */
export const VIP_PERIOD_KINDS = ['trial', 'paid'] as const;
export type VipPeriodKind = (typeof VIP_PERIOD_KINDS)[number];
export const VIP_PERIOD_STATUSES = ['pending', 'active', 'void'] as const;
export type VipPeriodStatus = (typeof VIP_PERIOD_STATUSES)[number];

/** The membership derived from the periods (vip_membership_transitions: which period may follow which). */
export const VIP_STATES = ['none', 'trial', 'member', 'lapsed'] as const;
export type VipState = (typeof VIP_STATES)[number];

/** The plans on sale: 30, 90 or 180 days at the deployment's price per 30 days (no discounts, no tiers). */
export const VIP_PLANS = ['30', '90', '180'] as const;
export type VipPlan = (typeof VIP_PLANS)[number];

export const vipPeriodView = z.object({
  id: z.number().int(),
  kind: z.enum(VIP_PERIOD_KINDS),
  status: z.enum(VIP_PERIOD_STATUSES),
  days: z.number().int(),
  startsAt: z.number().int(),
  endsAt: z.number().int(),
  /** Paid periods: what was paid and in what; null for the trial. */
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  /** The ledger transfer that paid it (the customer's funds records show it under the same link). */
  transferId: z.string().nullable(),
  createdAt: z.number().int(),
});
export type VipPeriodView = z.infer<typeof vipPeriodView>;

export const vipPlanView = z.object({
  plan: z.enum(VIP_PLANS),
  days: z.number().int(),
  /** The price per currency this deployment sells in. */
  prices: z.array(z.object({ currency: z.string(), amount: z.string() })),
});
export type VipPlanView = z.infer<typeof vipPlanView>;

export const vipFeatureView = z.object({
  feature: z.enum(VIP_FEATURES),
  /** This deployment lets only members use it (VIP_REQUIRED_FOR); otherwise membership adds to it. */
  membersOnly: z.boolean(),
  /** The customer may use it now (through the entitlement check). */
  entitled: z.boolean(),
});
export type VipFeatureView = z.infer<typeof vipFeatureView>;

export const vipStatusView = z.object({
  state: z.enum(VIP_STATES),
  member: z.boolean(),
  /** The free trial: how long, and whether this customer may still claim it. */
  trialDays: z.number().int(),
  trialAvailable: z.boolean(),
  /** The period covering now, and when membership ends (the last paid or trial period's end). */
  current: vipPeriodView.nullable(),
  expiresAt: z.number().int().nullable(),
  /** The deployment's market currency (prices are shown in it first) and the plans on sale. */
  currency: z.string(),
  plans: z.array(vipPlanView),
  features: z.array(vipFeatureView),
  /** The VIP stock-strategy feature, enabled by customer-service staff for this customer. */
  strategyEnabled: z.boolean(),
  periods: z.array(vipPeriodView),
});
export type VipStatusView = z.infer<typeof vipStatusView>;

export const vipBuyBody = z.object({
  plan: z.enum(VIP_PLANS, { error: 'vip_plan_unknown' }),
  /** Defaults to the deployment's market currency. */
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3,5}$/, { error: 'vip_currency_not_sold' })
    .optional(),
  /** The 6-digit transaction password (optional so a customer without one is told to set it). */
  password: pin().optional(),
  /** Idempotency key chosen by the client: a retry with the same key answers the first purchase. */
  clientOrderId: z.string().trim().min(8).max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
});
export type VipBuyInput = z.input<typeof vipBuyBody>;

export const vipBuyResult = z.object({ period: vipPeriodView, status: vipStatusView });

/** GET /user/vip/buy: what buying `plan` now would cost and cover (the purchase itself is the POST). */
export const vipQuoteQuery = vipBuyBody.pick({ plan: true, currency: true });
export const vipQuoteView = z.object({
  plan: z.enum(VIP_PLANS),
  days: z.number().int(),
  currency: z.string(),
  amount: z.string(),
  /** The stock wallet's available cash in that currency. */
  available: z.string(),
  /** A renewal starts when the membership ends; otherwise now. */
  startsAt: z.number().int(),
  endsAt: z.number().int(),
});
export type VipQuoteView = z.infer<typeof vipQuoteView>;

/** A trading-advice post: educational content by staff, shown to members, never a promise. */
export const vipAdviceView = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  publishedAt: z.number().int(),
  author: z.string(),
});
export type VipAdviceView = z.infer<typeof vipAdviceView>;

// --- the console's VIP desk -------------------------------------------------------------------------

export const staffVipMemberView = z.object({
  userId: z.number().int(),
  phone: z.string(),
  state: z.enum(VIP_STATES),
  expiresAt: z.number().int().nullable(),
  strategyEnabled: z.boolean(),
  periods: z.array(vipPeriodView),
});
export type StaffVipMemberView = z.infer<typeof staffVipMemberView>;

export const vipStrategyBody = z.object({
  userId: recordId(),
  enabled: z.boolean(),
  reason: actionReason(),
});

export const staffVipAdviceView = vipAdviceView.omit({ title: true, body: true }).extend({
  titleEn: z.string(),
  titlePt: z.string(),
  bodyEn: z.string(),
  bodyPt: z.string(),
  withdrawnAt: z.number().int().nullable(),
});
export type StaffVipAdviceView = z.infer<typeof staffVipAdviceView>;

export const vipAdviceBody = z.object({
  titleEn: text(160),
  titlePt: text(160),
  bodyEn: text(4000),
  bodyPt: text(4000),
  reason: actionReason(),
});
export type VipAdviceInput = z.input<typeof vipAdviceBody>;

export const vipAdviceWithdrawBody = z.object({ id: recordId(), reason: actionReason() });
