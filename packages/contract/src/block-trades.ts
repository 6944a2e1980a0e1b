// Shapes of block trades (issue 26 item 6; SPEC stockBulk): offers a staff member creates and a second
// one approves, customers' bids in whole lots during the exchange's block window, and the pro-rata
// allotment settled at the window's close. Holds: prices and amounts as decimal strings, quantities in
// shares, times epoch milliseconds. Must not: carry balances or promise an allotment.

import { z } from 'zod';
import { isPlainText, pageQuery, pin, recordId, text } from './fields.ts';
import { actionReason } from './staff.ts';

/** An offer as a customer sees it: before its window, bidding, closed (allotting), settled. */
export const BLOCK_OFFER_PHASES = ['upcoming', 'open', 'closed', 'settled'] as const;
export type BlockOfferPhase = (typeof BLOCK_OFFER_PHASES)[number];

/** An offer's life cycle in the console (block_offer_transitions). */
export const BLOCK_OFFER_STATUSES = ['pending_approval', 'published', 'rejected', 'settled'] as const;
export type BlockOfferStatus = (typeof BLOCK_OFFER_STATUSES)[number];

/** A bid's states as the customer sees them (block_bid_transitions). */
export const BLOCK_BID_STATUSES = ['applied', 'allotted', 'partly_allotted', 'not_allotted', 'cancelled'] as const;
export type BlockBidStatus = (typeof BLOCK_BID_STATUSES)[number];

/** Why a customer may not bid (null: eligible). */
/** not_vip: the deployment lists block trades in VIP_REQUIRED_FOR and the customer is not a member. */
export const BLOCK_INELIGIBLE_REASONS = ['kyc', 'not_hni', 'not_vip'] as const;

export const blockEligibilityView = z.object({
  eligible: z.boolean(),
  reason: z.enum(BLOCK_INELIGIBLE_REASONS).nullable(),
  /** The explanation in the request's language (empty when eligible). */
  message: z.string(),
});
export type BlockEligibilityView = z.infer<typeof blockEligibilityView>;

export const blockOfferView = z.object({
  id: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  exchange: z.string(),
  currency: z.string(),
  price: z.string(),
  /** The simulator's price when the offer was created, and the band around it the price had to be in. */
  referencePrice: z.string(),
  bandLow: z.string(),
  bandHigh: z.string(),
  /** Shares offered, and the lot bids are made in. */
  quantity: z.string(),
  lot: z.string(),
  /** The price of one lot. */
  lotAmount: z.string(),
  /** The disclosed seller. */
  seller: z.string(),
  opensAt: z.number().int(),
  closesAt: z.number().int(),
  /** When allotted shares become sellable (the start of the settlement day, T+1). */
  unlocksAt: z.number().int(),
  phase: z.enum(BLOCK_OFFER_PHASES),
  /** Settled offers: shares bid for in all, and allotted. */
  bidQuantity: z.string().nullable(),
  allottedQuantity: z.string().nullable(),
});
export type BlockOfferView = z.infer<typeof blockOfferView>;

export const blockBidView = z.object({
  id: z.number().int(),
  offerId: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  currency: z.string(),
  price: z.string(),
  quantity: z.string(),
  /** Held while applied; what the allotment paid and released after. */
  amount: z.string(),
  allottedQuantity: z.string(),
  paid: z.string(),
  released: z.string(),
  status: z.enum(BLOCK_BID_STATUSES),
  /** Allotted shares still locked until settlement, and when they unlock. */
  locked: z.boolean(),
  unlocksAt: z.number().int(),
  opensAt: z.number().int(),
  closesAt: z.number().int(),
  createdAt: z.number().int(),
});
export type BlockBidView = z.infer<typeof blockBidView>;

export const blockOfferListView = z.object({ items: z.array(blockOfferView), eligibility: blockEligibilityView });
export const blockOfferDetailView = z.object({
  offer: blockOfferView,
  eligibility: blockEligibilityView,
  bids: z.array(blockBidView),
  /** The customer's available funds in the offer's currency (stock wallet). */
  available: z.string(),
});
export type BlockOfferDetailView = z.infer<typeof blockOfferDetailView>;

export const blockOfferQuery = z.object({ id: recordId() });
export const blockBidListQuery = pageQuery;

export const blockBidBody = z.object({
  offerId: recordId(),
  quantity: z
    .string({ error: (issue) => (issue.input === undefined ? 'quantity_required' : 'field_invalid') })
    .trim()
    .min(1, { error: 'quantity_required' })
    .max(24, { error: 'field_invalid' }),
  /** The 6-digit transaction password (optional so a customer without one is told to set it). */
  password: pin().optional(),
  /** Idempotency key chosen by the client: a retry with the same key answers the first bid. */
  clientOrderId: z.string().trim().min(8).max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
});
export type BlockBidInput = z.input<typeof blockBidBody>;

export const blockCancelBody = z.object({ id: recordId() });

// --- the console's block desk -----------------------------------------------------------------------

export const createBlockOfferBody = z.object({
  symbol: text(40),
  quantity: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/, { error: 'field_invalid' }),
  lot: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/, { error: 'field_invalid' }),
  price: z.string().trim().max(24),
  /** The start of the block window the offer runs in (one of GET /admin/block-trades/windows). */
  opensAt: z.coerce.number().int(),
  /** The disclosed seller's name, shown to customers. */
  seller: text(80),
  reason: actionReason(),
});
export type CreateBlockOfferInput = z.input<typeof createBlockOfferBody>;

export const decideBlockOfferBody = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'field_invalid' }),
  reason: actionReason(),
});
export type DecideBlockOfferInput = z.input<typeof decideBlockOfferBody>;

export const blockWindowView = z.object({
  exchange: z.string(),
  opensAt: z.number().int(),
  closesAt: z.number().int(),
});
export type BlockWindowView = z.infer<typeof blockWindowView>;

export const staffBlockOfferView = blockOfferView.extend({
  status: z.enum(BLOCK_OFFER_STATUSES),
  /** The platform account the shares come from and the payment goes to (issuer:block-<id>). */
  sellerAccount: z.string(),
  createdBy: z.number().int(),
  createdByName: z.string(),
  createdAt: z.number().int(),
  createReason: z.string(),
  decidedBy: z.number().int().nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: z.number().int().nullable(),
  decisionReason: z.string(),
});
export type StaffBlockOfferView = z.infer<typeof staffBlockOfferView>;

export const staffBlockBidView = blockBidView.extend({ userId: z.number().int() });
export type StaffBlockBidView = z.infer<typeof staffBlockBidView>;

export const staffBlockOfferDetail = z.object({ offer: staffBlockOfferView, bids: z.array(staffBlockBidView) });
export type StaffBlockOfferDetail = z.infer<typeof staffBlockOfferDetail>;

export const markHniBody = z.object({ userId: recordId(), reason: actionReason() });
