// Shapes of fiat deposits (SPEC §7 /index/bank/recharge, /user/recharge/*): the rails open per currency,
// a deposit request (bank or offline transfer with reference and proof, or PIX with a dynamic BR Code),
// its state and its history. Holds: amounts are decimal strings at this edge; the server parses them at
// the currency's scale. Must not: decide limits or states (the server's deposits feature does).

import { z } from 'zod';
import { optionalText, pageQuery, recordId } from './fields.ts';
import { actionReason } from './staff.ts';

export const DEPOSIT_RAILS = ['bank', 'offline', 'pix'] as const;
export type DepositRail = (typeof DEPOSIT_RAILS)[number];
export const DEPOSIT_CURRENCIES = ['INR', 'BRL', 'USD'] as const;
export type DepositCurrency = (typeof DEPOSIT_CURRENCIES)[number];
/** bank/offline: pending → confirmed | rejected; pix: awaiting_payment → confirmed | expired (→ confirmed if paid late). */
export const DEPOSIT_STATUSES = ['pending', 'awaiting_payment', 'confirmed', 'rejected', 'expired'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** A proof image as base64 data (a data: URL or bare base64), checked and re-encoded by the server. */
const proofImage = z.string().min(1).max(8_000_000);

/** Where the customer sends a bank or offline deposit; sandbox accounts say so (isSandbox). */
export const receivingAccountView = z.object({
  holderName: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  /** India's branch code, Brazil's branch (agência), a wire's SWIFT/BIC and routing number: as they apply. */
  ifsc: z.string().nullable(),
  branch: z.string().nullable(),
  swift: z.string().nullable(),
  routingNumber: z.string().nullable(),
  pixKey: z.string().nullable(),
  isSandbox: z.boolean(),
});
export type ReceivingAccountView = z.infer<typeof receivingAccountView>;

export const depositChannelView = z.object({
  currency: z.enum(DEPOSIT_CURRENCIES),
  rail: z.enum(DEPOSIT_RAILS),
  minAmount: z.string(),
  /** The maximum now (PIX at night is lower: DOMAIN.md). */
  maxAmount: z.string(),
  isOpen: z.boolean(),
  /** The platform's receiving account for bank and offline deposits; null for PIX. */
  account: receivingAccountView.nullable(),
  /** Minutes a PIX charge stays payable; null for the other rails. */
  expiresInMin: z.number().int().nullable(),
});
export type DepositChannelView = z.infer<typeof depositChannelView>;

export const depositChannelsQuery = z.object({ currency: z.enum(DEPOSIT_CURRENCIES).optional() });
export const depositChannelsView = z.object({ items: z.array(depositChannelView) });
export type DepositChannelsView = z.infer<typeof depositChannelsView>;

export const addDepositBody = z.object({
  rail: z.enum(DEPOSIT_RAILS),
  currency: z.enum(DEPOSIT_CURRENCIES),
  /** A decimal string, at most the currency's decimals (the server checks). */
  amount: z.string().trim().min(1, { error: 'field_required' }).max(24, { error: 'invalid_amount' }),
  /** The customer's own transfer reference (bank and offline). */
  reference: optionalText(64),
  proof: proofImage.optional(),
  /** Makes a retry answer the first deposit (also accepted as the Idempotency-Key header). */
  requestId: z
    .string()
    .regex(/^[\w-]{8,64}$/, { error: 'field_invalid' })
    .optional(),
});
export type AddDepositInput = z.input<typeof addDepositBody>;

export const depositTransitionView = z.object({
  from: z.string(),
  to: z.enum(DEPOSIT_STATUSES),
  at: z.number(),
  /** customer, staff, provider (the PIX provider's webhook) or system (expiry). */
  actor: z.enum(['customer', 'staff', 'provider', 'system']),
  reason: z.string(),
});
export type DepositTransitionView = z.infer<typeof depositTransitionView>;

export const depositView = z.object({
  id: z.number().int(),
  rail: z.enum(DEPOSIT_RAILS),
  currency: z.enum(DEPOSIT_CURRENCIES),
  amount: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  reference: z.string(),
  hasProof: z.boolean(),
  /** The last decision's reason (a rejection's is shown to the customer). */
  reason: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** PIX: when the charge stops being payable. */
  expiresAt: z.number().nullable(),
  txid: z.string().nullable(),
  /** The ledger transfer that credited it (`deposit:<id>`), once confirmed. */
  transferId: z.string().nullable(),
});
export type DepositView = z.infer<typeof depositView>;

export const depositDetailView = depositView.extend({
  history: z.array(depositTransitionView),
  /** PIX: the BR Code ("copia e cola") and its QR image as a data: URL. */
  pix: z.object({ brCode: z.string(), qrDataUrl: z.string() }).nullable(),
  /** Paper mode: the sandbox provider can be told to pay this charge. */
  canSimulate: z.boolean(),
});
export type DepositDetailView = z.infer<typeof depositDetailView>;

export const depositOrderQuery = pageQuery.extend({
  status: z.enum(DEPOSIT_STATUSES).optional(),
  /** One rail, or several separated by commas (bank records list bank and offline together). */
  rail: z
    .string()
    .regex(/^(bank|offline|pix)(,(bank|offline|pix))*$/, { error: 'field_invalid' })
    .transform((v) => [...new Set(v.split(','))] as DepositRail[])
    .optional(),
});
export const depositIdQuery = z.object({ id: recordId() });
export const depositIdBody = depositIdQuery;

/** The finance desk's view of a deposit waiting for a decision. */
export const depositReviewItem = depositView.extend({ userId: z.number().int(), account: z.string() });
export type DepositReviewItem = z.infer<typeof depositReviewItem>;

export const depositDecisionBody = z.object({
  decision: z.enum(['confirm', 'reject']),
  reason: actionReason(),
});
export type DepositDecisionInput = z.infer<typeof depositDecisionBody>;
