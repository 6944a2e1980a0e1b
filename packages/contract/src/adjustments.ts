// Shapes of manual adjustments (PRODUCT.md rule 2): one staff member proposes a signed amount for a
// customer's wallet with a written reason; a different one approves (an engine transfer) or rejects.
// Holds: amounts are signed decimal strings; times epoch milliseconds. Must not: carry balances.

import { z } from 'zod';
import { recordId } from './fields.ts';
import { actionReason } from './staff.ts';

export const ADJUSTMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type AdjustmentStatus = (typeof ADJUSTMENT_STATUSES)[number];
/** The customer wallets an adjustment may touch. */
export const ADJUSTMENT_WALLETS = ['stock', 'spot'] as const;

/** Written reasons are the staff actions' own (3 to 500 characters), kept in the audit log. */
const reasonText = actionReason();

export const proposeAdjustmentBody = z.object({
  userId: recordId(),
  wallet: z.enum(ADJUSTMENT_WALLETS, { error: 'field_invalid' }),
  asset: z
    .string()
    .trim()
    .regex(/^[A-Z][A-Z0-9]{1,15}$/, { error: 'field_invalid' }),
  /** Signed: positive credits the customer, negative debits them. Never zero. */
  amount: z
    .string()
    .trim()
    .regex(/^-?\d{1,12}(\.\d{1,18})?$/, { error: 'invalid_amount' })
    .refine((v) => /[1-9]/.test(v), { error: 'invalid_amount' }),
  reason: reasonText,
});
export type ProposeAdjustmentInput = z.input<typeof proposeAdjustmentBody>;

export const decideAdjustmentBody = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'field_invalid' }),
  /** Why the second staff member approves or rejects it. */
  reason: reasonText,
});
export type DecideAdjustmentInput = z.input<typeof decideAdjustmentBody>;

export const adjustmentsQuery = z.object({
  status: z.enum([...ADJUSTMENT_STATUSES, 'all']).default('all'),
});

export const adjustmentView = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  wallet: z.string(),
  asset: z.string(),
  amount: z.string(),
  reason: z.string(),
  status: z.enum(ADJUSTMENT_STATUSES),
  proposedBy: z.number().int(),
  proposedByName: z.string(),
  proposedAt: z.number().int(),
  decidedBy: z.number().int().nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: z.number().int().nullable(),
  decisionReason: z.string(),
  /** The ledger transfer approval posted (its id), or null. */
  transferId: z.string().nullable(),
});
export type AdjustmentView = z.infer<typeof adjustmentView>;
