// Shapes of IPO subscription (SPEC §7 /stock/index/new/*, /stock/index/offline/*, /stock/order/new/*,
// /stock/order/offline/*, /user/update/autoapply; SPEC §4's subscription states; issue 26).
// Holds: money and share counts are decimal strings at this edge (INR, 2 decimals for prices); lots are
// whole numbers. Must not: decide eligibility, prices or allotments (the server's ipo feature does; the
// draw itself is the pure function in ipo-draw.ts, which anyone can re-run from the public record).

import { z } from 'zod';
import { formBoolean, isPlainText, pageQuery, pin, recordId, text, wholeNumber } from './fields.ts';
import { actionReason } from './staff.ts';

/** Public randomness beacons an IPO draw can mix in (their checks live in beacon.ts, off the boot path). */
export const BEACON_SOURCES = ['drand-quicknet', 'sandbox'] as const;
export type BeaconSource = (typeof BEACON_SOURCES)[number];

export const IPO_EXCHANGES = ['NSE', 'BSE'] as const;
export type IpoExchange = (typeof IPO_EXCHANGES)[number];

/**
 * An IPO's life: draft (created, waiting for a second staff member) → upcoming (approved, not open yet)
 * → open (taking applications) → closed (waiting for the draw) → allotted (drawn, shares locked)
 * → listed (tradable). rejected: the second staff member refused it; it never opens.
 */
export const IPO_STATUSES = ['draft', 'rejected', 'upcoming', 'open', 'closed', 'allotted', 'listed'] as const;
export type IpoStatus = (typeof IPO_STATUSES)[number];

/** The categories an issue is split into (SEBI): retail (online), non-institutional (offline), institutional. */
export const IPO_CATEGORIES = ['retail', 'nii', 'qib'] as const;
export type IpoCategory = (typeof IPO_CATEGORIES)[number];

/**
 * An application's state (SPEC §4):
 * - applying: the issue is open; an online application's funds are held (ASBA), an offline one holds nothing;
 * - waiting_allocated: the issue closed, the draw has not run;
 * - allocated: allotted; an online application's held funds were posted and the shares delivered
 *   (locked until listing day);
 * - wait_for_payment: an offline application was allotted and its payment window is open;
 * - paid: an offline allotment paid within its window (shares delivered, locked until listing day);
 * - not_allotted: did not receive allotment (held funds released);
 * - unsubscribed: cancelled by the customer before the close (held funds released);
 * - forfeited: an offline allotment not paid within its window (`reason` says so).
 */
export const IPO_APPLICATION_STATUSES = [
  'applying',
  'waiting_allocated',
  'allocated',
  'wait_for_payment',
  'paid',
  'not_allotted',
  'unsubscribed',
  'forfeited',
] as const;
export type IpoApplicationStatus = (typeof IPO_APPLICATION_STATUSES)[number];

export const IPO_CHANNELS = ['online', 'offline'] as const;
export type IpoChannel = (typeof IPO_CHANNELS)[number];

// --- the listing -------------------------------------------------------------------------------------

/** One category's offer and demand: shares offered, shares applied for, and the times subscribed. */
export const ipoCategorySubscriptionView = z.object({
  category: z.enum(IPO_CATEGORIES),
  /** Shares reserved for the category. */
  offered: z.string(),
  /** Shares applied for by valid applications (the highest bid of each). */
  applied: z.string(),
  applications: z.number().int(),
  /** applied ÷ offered as a decimal string with 2 decimals ("0.00" when nothing is offered). */
  times: z.string(),
});
export type IpoCategorySubscriptionView = z.infer<typeof ipoCategorySubscriptionView>;

export const ipoView = z.object({
  id: z.number().int(),
  issuer: z.string(),
  exchange: z.enum(IPO_EXCHANGES),
  symbol: z.string(),
  name: z.string(),
  currency: z.string(),
  /** The price band (per share). Cut-off means the top of the band. */
  priceLow: z.string(),
  priceHigh: z.string(),
  /** The issue price once the issue closes (the top of the band), null before. */
  issuePrice: z.string().nullable(),
  /** Shares per lot: bids are whole lots. */
  lotSize: z.number().int(),
  totalShares: z.string(),
  /** Category split in percent of the issue (whole numbers summing to 100). */
  retailPct: z.number().int(),
  niiPct: z.number().int(),
  qibPct: z.number().int(),
  /** The most an online (retail) application may bid, and the least an offline (NII) one must. */
  retailMaxAmount: z.string(),
  /** The smallest number of lots an online application can bid, and the largest (from retailMaxAmount). */
  minLots: z.number().int(),
  maxRetailLots: z.number().int(),
  /** Epoch ms. listingAt is T+3 working days of the exchange after the close. */
  opensAt: z.number().int(),
  closesAt: z.number().int(),
  allotmentAt: z.number().int(),
  listingAt: z.number().int(),
  status: z.enum(IPO_STATUSES),
  subscription: z.array(ipoCategorySubscriptionView),
  /**
   * SHA-256 (hex) of the draw's seed, published when the issue opens (null before): the seed cannot be
   * chosen after the applications are seen.
   */
  seedHash: z.string().nullable(),
  /** The seed itself (hex), revealed at the draw; null before. */
  seed: z.string().nullable(),
  /**
   * The public beacon round fixed at the opening, published only after the close: the draw runs on
   * SHA-256(seed ‖ that round's randomness), so nobody, the operator included, knows the outcome before
   * the close (decision 0036). Null for an IPO opened before the beacon was used.
   */
  beacon: z.object({ source: z.enum(BEACON_SOURCES), round: z.number().int(), roundTime: z.number().int() }).nullable(),
  /** How the retail draw went, once drawn: a lottery of one lot each, or everyone one lot plus a proportionate remainder. */
  drawMode: z.enum(['lottery', 'proportionate']).nullable(),
  /** The offline payment window after the draw, in hours. */
  paymentWindowHours: z.number().int(),
});
export type IpoView = z.infer<typeof ipoView>;

export const ipoListQuery = pageQuery;
export const ipoListView = z.object({ items: z.array(ipoView), total: z.number().int() });
export type IpoListView = z.infer<typeof ipoListView>;
export const ipoInfoQuery = z.object({ id: recordId() });

// --- applications ------------------------------------------------------------------------------------

/** A bid's price: a decimal within the band, or "cutoff" (online only: the top of the band). */
const bidPrice = z
  .string({ error: 'field_required' })
  .trim()
  .min(1, { error: 'field_required' })
  .max(24, { error: 'field_invalid' });
/** Whole lots; 0 is answered ipo_lots_invalid by the server (a bid is at least one lot). */
const bidLots = wholeNumber(0, 1_000_000);

/**
 * An online (retail) application: up to 3 bids, sent as flat fields (the app posts forms). Bid 1 is
 * required; a bid 2 or 3 needs both its lots and its price. The server holds the highest bid's amount.
 */
export const applyIpoBody = z.object({
  ipoId: recordId(),
  bid1Lots: bidLots,
  bid1Price: bidPrice,
  bid2Lots: bidLots.optional(),
  bid2Price: bidPrice.optional(),
  bid3Lots: bidLots.optional(),
  bid3Price: bidPrice.optional(),
  /** The 6-digit transaction password (trade_password_not_set when the customer has none). */
  password: pin().optional(),
});
export type ApplyIpoInput = z.input<typeof applyIpoBody>;

/** An offline (NII/HNI) application: one bid at a price in the band (no cut-off), above retailMaxAmount. */
export const applyOfflineIpoBody = z.object({
  ipoId: recordId(),
  lots: bidLots,
  price: bidPrice,
  password: pin().optional(),
});
export type ApplyOfflineIpoInput = z.input<typeof applyOfflineIpoBody>;

export const cancelIpoApplicationBody = z.object({ id: recordId() });
export type CancelIpoApplicationInput = z.input<typeof cancelIpoApplicationBody>;

/** An offline allotment's payment (inside the payment window). */
export const payIpoApplicationBody = z.object({ id: recordId(), password: pin().optional() });
export type PayIpoApplicationInput = z.input<typeof payIpoApplicationBody>;

export const ipoApplicationListQuery = pageQuery.extend({ ipoId: recordId().optional() });
export type IpoApplicationListInput = z.input<typeof ipoApplicationListQuery>;

export const ipoBidView = z.object({
  lots: z.number().int(),
  /** The bid price; for a cut-off bid, the top of the band. */
  price: z.string(),
  cutOff: z.boolean(),
  /** lots × lot size × price. */
  amount: z.string(),
});
export type IpoBidView = z.infer<typeof ipoBidView>;

export const ipoApplicationView = z.object({
  id: z.number().int(),
  /** The anonymised reference this application carries in the public draw record. */
  ref: z.string(),
  ipoId: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  currency: z.string(),
  channel: z.enum(IPO_CHANNELS),
  /** Placed by the customer's auto-subscribe consent rather than by hand. */
  auto: z.boolean(),
  bids: z.array(ipoBidView),
  /** Funds held for the application (the highest bid); "0" for offline ones before payment. */
  heldAmount: z.string(),
  status: z.enum(IPO_APPLICATION_STATUSES),
  /** Shares allotted (0 until the draw, and when not allotted). */
  allottedShares: z.string(),
  /** What the allotment costs or cost (allotted shares × issue price). */
  allottedAmount: z.string(),
  /** The end of an offline allotment's payment window (epoch ms), null otherwise. */
  paymentDueAt: z.number().int().nullable(),
  /** Why it ended as it did (a forfeit's reason), or ''. */
  reason: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type IpoApplicationView = z.infer<typeof ipoApplicationView>;

export const ipoApplicationResult = z.object({ application: ipoApplicationView });
export type IpoApplicationResult = z.infer<typeof ipoApplicationResult>;
export const ipoApplicationListView = z.object({ items: z.array(ipoApplicationView), total: z.number().int() });
export type IpoApplicationListView = z.infer<typeof ipoApplicationListView>;

// --- auto-subscribe ----------------------------------------------------------------------------------

export const autoApplyBody = z.object({ enabled: formBoolean(false) });
export type AutoApplyInput = z.input<typeof autoApplyBody>;
/** The customer's standing consent (off by default) and whether the deployment offers it (openAutoApply). */
export const autoApplyView = z.object({ enabled: z.boolean(), openAutoApply: z.number().int() });
export type AutoApplyView = z.infer<typeof autoApplyView>;

// --- the public draw record --------------------------------------------------------------------------

/** v1: the draw ran on the committed seed alone; v2: on SHA-256(seed ‖ beacon round randomness). */
export const IPO_DRAW_ALGORITHMS = ['bourse-ipo-draw-v1', 'bourse-ipo-draw-v2'] as const;
export const IPO_DRAW_ALGORITHM = 'bourse-ipo-draw-v2' as const;

/** An application as the draw sees it: its anonymised reference and the lots of its valid highest bid. */
export const ipoDrawEntry = z.object({ ref: z.string(), lots: z.number().int() });
export type IpoDrawEntry = z.infer<typeof ipoDrawEntry>;
export const ipoDrawAllotment = z.object({ ref: z.string(), lots: z.number().int() });
export type IpoDrawAllotment = z.infer<typeof ipoDrawAllotment>;

/**
 * Everything needed to re-run the retail draw (no login): the revealed seed (check it against seedHash),
 * the valid retail applications in canonical order, the retail shares and the lot. Re-running
 * drawIpoRetail (ipo-draw.ts) on these must give `allotments`.
 */
export const ipoDrawRecordView = z.object({
  algorithm: z.enum(IPO_DRAW_ALGORITHMS),
  ipoId: z.number().int(),
  symbol: z.string(),
  name: z.string(),
  seedHash: z.string(),
  seed: z.string(),
  /** When applications stopped: the beacon round must be published after it. */
  closesAt: z.number().int(),
  /**
   * v2: the beacon round mixed into the seed. `signature` lets anyone check a drand round offline
   * (verifyDrandQuicknetRound); a sandbox round (paper mode) has none and proves nothing to an outsider.
   */
  beacon: z
    .object({
      source: z.enum(BEACON_SOURCES),
      round: z.number().int(),
      randomness: z.string(),
      signature: z.string().nullable(),
    })
    .nullable(),
  retailShares: z.string(),
  lotSize: z.number().int(),
  mode: z.enum(['lottery', 'proportionate']),
  applications: z.array(ipoDrawEntry),
  /** Allotted applications in canonical order with the lots each got. */
  allotments: z.array(ipoDrawAllotment),
  drawnAt: z.number().int(),
});
export type IpoDrawRecordView = z.infer<typeof ipoDrawRecordView>;
export const ipoDrawRecordQuery = z.object({ ipoId: recordId() });

// --- the console IPO desk ----------------------------------------------------------------------------

const percent = wholeNumber(0, 100);
const decimalField = z
  .string({ error: 'field_required' })
  .trim()
  .min(1, { error: 'field_required' })
  .max(24, { error: 'field_invalid' });
/** A calendar day, YYYY-MM-DD, in the exchange's time zone. */
const day = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { error: 'field_invalid' });

export const createIpoBody = z.object({
  issuer: text(120),
  exchange: z.enum(IPO_EXCHANGES, { error: 'field_invalid' }),
  symbol: z
    .string({ error: 'field_required' })
    .trim()
    .regex(/^[A-Z][A-Z0-9]{1,15}$/, { error: 'ipo_symbol_invalid' }),
  name: text(120),
  priceLow: decimalField,
  priceHigh: decimalField,
  lotSize: wholeNumber(1, 100_000),
  totalShares: decimalField,
  retailPct: percent,
  niiPct: percent,
  qibPct: percent,
  /** Days the issue opens and closes (the exchange's session times apply). */
  opensOn: day,
  closesOn: day,
  note: z.string().max(500).refine(isPlainText, { error: 'field_invalid' }).optional(),
});
export type CreateIpoInput = z.input<typeof createIpoBody>;

export const reviewIpoBody = z.object({
  id: recordId(),
  approve: formBoolean(false),
  reason: actionReason(),
});
export type ReviewIpoInput = z.input<typeof reviewIpoBody>;

export const ipoIdBody = z.object({ id: recordId() });
export type IpoIdInput = z.input<typeof ipoIdBody>;

/** The console's view: the public one plus who created and approved it. */
export const staffIpoView = ipoView.extend({
  createdBy: z.number().int(),
  approvedBy: z.number().int().nullable(),
  reviewReason: z.string(),
  createdAt: z.number().int(),
});
export type StaffIpoView = z.infer<typeof staffIpoView>;
export const staffIpoListView = z.object({ items: z.array(staffIpoView), total: z.number().int() });
export type StaffIpoListView = z.infer<typeof staffIpoListView>;

/** The console's "run listing" (on or after the listing day), with the staff member's reason. */
export const runIpoListingBody = z.object({ id: recordId(), reason: actionReason() });
export type RunIpoListingInput = z.input<typeof runIpoListingBody>;

/** Whom auto-subscribe applied for at an IPO's open, and whom it skipped with the refusal's code. */
export const ipoAutoApplyLogView = z.object({
  items: z.array(z.object({ userId: z.number().int(), outcome: z.enum(['applied', 'skipped']), reason: z.string() })),
});
export type IpoAutoApplyLogView = z.infer<typeof ipoAutoApplyLogView>;
