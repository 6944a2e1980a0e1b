// Shapes of coin offerings (the launchpad, SPEC coinICO and /coin/new/*, /coin/order/new/*): a cap of
// coins for sale at a fixed USDT price in a subscription window; customers commit USDT (held, not paid);
// at the close the coins are allotted pro rata, the unspent USDT released in the same step, and the coin
// listed on the spot market with its USDT pair. Staff create an offering; a second staff member approves.
// Holds: amounts as decimal strings (USDT with 6 decimals, coins at their own scale); times epoch ms.
// Must not: promise an allotment or a return (the texts say how allotment works and what can go wrong).

import { z } from 'zod';
import { isPlainText, pageQuery, pin, recordId, text } from './fields.ts';
import { actionReason } from './staff.ts';

/** The offering's life cycle in the console: staff create it, a different staff member decides. */
export const COIN_OFFERING_STATUSES = ['pending_approval', 'approved', 'rejected', 'allotted', 'listed'] as const;
export type CoinOfferingStatus = (typeof COIN_OFFERING_STATUSES)[number];
/** What a customer sees of an approved offering at a moment: before, during or after its window. */
export const COIN_OFFERING_PHASES = ['upcoming', 'open', 'closed', 'allotted', 'listed'] as const;
export type CoinOfferingPhase = (typeof COIN_OFFERING_PHASES)[number];
/**
 * subscribed: USDT held; cancelled: released before the close; allotted: coins delivered, their price
 * paid and the rest released; not_allotted: nothing allotted (less than one unit), everything released.
 */
export const COIN_COMMITMENT_STATUSES = ['subscribed', 'cancelled', 'allotted', 'not_allotted'] as const;
export type CoinCommitmentStatus = (typeof COIN_COMMITMENT_STATUSES)[number];

const decimal = (code: 'invalid_amount' | 'field_invalid' = 'invalid_amount') =>
  z
    .string({ error: 'field_required' })
    .trim()
    .regex(/^\d{1,15}(\.\d{1,18})?$/, { error: code });

// --- customer calls ------------------------------------------------------------------------------

export const coinOfferingListBody = pageQuery;
export const coinOfferingIdBody = z.object({ id: recordId() });

export const applyCoinOfferingBody = z.object({
  id: recordId(),
  /** USDT to commit (held in the spot wallet until the close). */
  amount: decimal(),
  password: pin().optional(),
});
export type ApplyCoinOfferingInput = z.input<typeof applyCoinOfferingBody>;

export const cancelCoinCommitmentBody = z.object({ id: recordId() });

export const coinCommitmentView = z.object({
  id: z.number().int(),
  offeringId: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  price: z.string(),
  amount: z.string(),
  status: z.enum(COIN_COMMITMENT_STATUSES),
  /** Coins delivered to the spot wallet at the close ("0" before). */
  allotted: z.string(),
  /** USDT paid for them. */
  paid: z.string(),
  /** USDT released back to the spot wallet (the unspent part, or all of it on cancel). */
  refunded: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type CoinCommitmentView = z.infer<typeof coinCommitmentView>;

export const coinOfferingView = z.object({
  id: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  summary: z.string(),
  /** Price of one coin in USDT. */
  price: z.string(),
  /** Coins for sale. */
  cap: z.string(),
  /** Coins are allotted in multiples of this. */
  unit: z.string(),
  minCommit: z.string(),
  maxCommit: z.string(),
  opensAt: z.number().int(),
  closesAt: z.number().int(),
  phase: z.enum(COIN_OFFERING_PHASES),
  /** USDT committed so far by everyone (live commitments). */
  committed: z.string(),
  /** Coins allotted at the close ("0" before). */
  sold: z.string(),
  /** The spot pair once listed ("NOVAUSDT"), else null. */
  pair: z.string().nullable(),
  /** The signed-in customer's live or last commitment, or null. */
  mine: coinCommitmentView.nullable(),
});
export type CoinOfferingView = z.infer<typeof coinOfferingView>;

// --- the console's launchpad desk ----------------------------------------------------------------

export const createCoinOfferingBody = z.object({
  symbol: z
    .string()
    .trim()
    .regex(/^[A-Z][A-Z0-9]{1,9}$/, { error: 'field_invalid' }),
  name: text(60),
  /** Decimals of the coin's minor unit. */
  scale: z
    .number()
    .int({ error: 'field_invalid' })
    .min(0, { error: 'field_invalid' })
    .max(18, { error: 'field_invalid' }),
  price: decimal(),
  cap: decimal(),
  unit: decimal(),
  minCommit: decimal(),
  maxCommit: decimal(),
  opensAt: z.number().int({ error: 'field_invalid' }).positive({ error: 'field_invalid' }),
  closesAt: z.number().int({ error: 'field_invalid' }).positive({ error: 'field_invalid' }),
  /** What the coin is for, and its risks, as customers will read it. */
  summary: z
    .string()
    .trim()
    .min(20, { error: 'field_required' })
    .max(1000, { error: 'field_invalid' })
    .refine(isPlainText, {
      error: 'field_invalid',
    }),
  reason: actionReason(),
});
export type CreateCoinOfferingInput = z.input<typeof createCoinOfferingBody>;

export const decideCoinOfferingBody = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'field_invalid' }),
  reason: actionReason(),
});
export type DecideCoinOfferingInput = z.input<typeof decideCoinOfferingBody>;

export const staffCoinOfferingView = coinOfferingView.omit({ mine: true }).extend({
  status: z.enum(COIN_OFFERING_STATUSES),
  scale: z.number().int(),
  reason: z.string(),
  createdBy: z.number().int(),
  createdByName: z.string(),
  approvedBy: z.number().int().nullable(),
  approvedByName: z.string().nullable(),
  subscribers: z.number().int(),
});
export type StaffCoinOfferingView = z.infer<typeof staffCoinOfferingView>;

export const staffCoinCommitmentView = coinCommitmentView.extend({ userId: z.number().int() });
export type StaffCoinCommitmentView = z.infer<typeof staffCoinCommitmentView>;
