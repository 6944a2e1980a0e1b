// Shapes of withdrawals (SPEC §7: /user/withdraw/*, /coin/withdraw/*): by bank or PIX from a saved bank
// account, by crypto to a saved address; the address book; the fee preview; the finance desk's review.
// Holds: amounts are decimal strings at the edge; every state a withdrawal went through is in `history`
// with its time (PRODUCT.md rule 5). Must not: carry rules that need the engine or the database.

import { z } from 'zod';
import { idStatus } from './accounts.ts';
import { BANK_WITHDRAW_LOCK_MS } from './bank-accounts.ts';
import { optionalText, pageQuery, pin, recordId, text } from './fields.ts';
import { actionReason } from './staff.ts';

/** requested → reviewing → approved → paying → paid | failed; reviewing → rejected | cancelled. */
export const WITHDRAWAL_STATES = [
  'requested',
  'reviewing',
  'approved',
  'paying',
  'paid',
  'failed',
  'rejected',
  'cancelled',
] as const;
export const withdrawalState = z.enum(WITHDRAWAL_STATES);
export type WithdrawalState = z.infer<typeof withdrawalState>;

/** How the money leaves: a bank transfer, a PIX payment (Brazil), or a blockchain transaction. */
export const WITHDRAWAL_RAILS = ['bank', 'pix', 'crypto'] as const;
export const withdrawalRail = z.enum(WITHDRAWAL_RAILS);
export type WithdrawalRail = z.infer<typeof withdrawalRail>;

/** A new withdrawal address, like a new bank account, locks withdrawals this long (DOMAIN.md): one rule. */
export const WITHDRAW_LOCK_MS = BANK_WITHDRAW_LOCK_MS;
/** A customer may keep this many live withdrawal addresses. */
export const WITHDRAW_ADDRESS_LIMIT = 20;

/** A positive decimal as typed: digits, optionally a point and more digits (the server checks the scale). */
const amount = () =>
  z
    .string({ error: 'withdraw_amount_invalid' })
    .trim()
    .regex(/^\d{1,15}(\.\d{1,18})?$/, { error: 'withdraw_amount_invalid' });

/** The client's key for a retry: the same key and body answer the first withdrawal. */
const requestId = () =>
  z
    .string({ error: 'field_invalid' })
    .regex(/^[\w-]{8,64}$/, { error: 'field_invalid' })
    .optional();

export const bankWithdrawBody = z.object({
  /** A bank account id from /bank/list. */
  bankId: recordId(),
  currency: z.enum(['INR', 'BRL'], { error: 'field_invalid' }),
  /** PIX is for Brazilian accounts (their PIX key); bank otherwise. */
  method: z.enum(['bank', 'pix'], { error: 'field_invalid' }).default('bank'),
  amount: amount(),
  /** The 6-digit withdrawal password. */
  password: pin(),
  requestId: requestId(),
});
export type BankWithdrawBody = z.output<typeof bankWithdrawBody>;
export type BankWithdrawInput = z.input<typeof bankWithdrawBody>;

export const coinWithdrawBody = z.object({
  asset: z
    .string({ error: 'field_required' })
    .trim()
    .toUpperCase()
    .pipe(z.enum(['BTC', 'ETH', 'USDT'], { error: 'field_invalid' })),
  network: z
    .string({ error: 'field_required' })
    .trim()
    .toUpperCase()
    .pipe(z.enum(['BTC', 'ETH'], { error: 'field_invalid' })),
  /** An address-book id from /coin/withdraw/address. */
  addressId: recordId(),
  amount: amount(),
  password: pin(),
  requestId: requestId(),
});
export type CoinWithdrawBody = z.output<typeof coinWithdrawBody>;
export type CoinWithdrawInput = z.input<typeof coinWithdrawBody>;

export const withdrawalStep = z.object({ status: withdrawalState, at: z.number(), reason: z.string() });
export type WithdrawalStep = z.infer<typeof withdrawalStep>;

export const withdrawalView = z.object({
  id: z.number(),
  rail: withdrawalRail,
  asset: z.string(),
  network: z.string().nullable(),
  /** What the customer asked to withdraw (held at request). */
  amount: z.string(),
  /** Taken from the amount. */
  fee: z.string(),
  /** What arrives: amount − fee. */
  receive: z.string(),
  status: withdrawalState,
  /** Why it was rejected or failed; empty otherwise. */
  reason: z.string(),
  /** Where it goes, as the customer recognises it (bank and masked account, or the address). */
  destination: z.string(),
  bankAccountId: z.number().nullable(),
  addressId: z.number().nullable(),
  /** The rail's reference once paid (a transaction hash for crypto). */
  payoutRef: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Every state it went through, oldest first, each with its time. */
  history: z.array(withdrawalStep),
  /** Whether the customer may still cancel it (while under review). */
  cancellable: z.boolean(),
});
export type WithdrawalView = z.infer<typeof withdrawalView>;

export const withdrawalListView = z.object({ items: z.array(withdrawalView), total: z.number() });
export type WithdrawalListView = z.infer<typeof withdrawalListView>;

export const withdrawalOrderQuery = pageQuery;
export const withdrawalIdQuery = z.object({ id: recordId() });
export const withdrawalCancelBody = withdrawalIdQuery;
/** /coin/withdraw/order: the crypto withdrawals, paged, or the one `id` names. */
export const coinWithdrawOrderBody = pageQuery.extend({ id: recordId().optional() });

/** One rail's terms for one asset, shown before confirming (the fee preview). */
export const withdrawTerms = z.object({
  rail: withdrawalRail,
  asset: z.string(),
  network: z.string().nullable(),
  /** What the network is called to the customer (test networks in paper mode). */
  networkName: z.string().nullable(),
  min: z.string(),
  max: z.string(),
  /** A flat fee, taken from the amount: what arrives is amount − fee. */
  fee: z.string(),
  /** Amounts above this wait for finance staff; at or below, approval is automatic. */
  reviewAbove: z.string(),
  /** Whether the rail takes withdrawals now (withdrawals_closed otherwise). */
  open: z.boolean(),
  /** Available to withdraw now. */
  available: z.string(),
});
export type WithdrawTerms = z.infer<typeof withdrawTerms>;

export const withdrawConfigView = z.object({
  terms: z.array(withdrawTerms),
  /** Epoch ms until which withdrawals stay locked (newest bank account or address + 24 h); 0 if not. */
  withdrawalsLockedUntil: z.number(),
  withdrawPasswordSet: z.boolean(),
  kycStatus: idStatus,
});
export type WithdrawConfigView = z.infer<typeof withdrawConfigView>;

// --- the address book ---

export const withdrawAddressView = z.object({
  id: z.number(),
  asset: z.string(),
  network: z.string(),
  networkName: z.string(),
  address: z.string(),
  label: z.string(),
  createdAt: z.number(),
});
export type WithdrawAddressView = z.infer<typeof withdrawAddressView>;

export const withdrawAddressListBody = z.object({
  asset: z.string().trim().toUpperCase().max(12, { error: 'field_invalid' }).optional(),
});
export const withdrawAddressListView = z.object({
  items: z.array(withdrawAddressView),
  withdrawalsLockedUntil: z.number(),
});
export type WithdrawAddressListView = z.infer<typeof withdrawAddressListView>;

export const addWithdrawAddressBody = z.object({
  asset: z
    .string({ error: 'field_required' })
    .trim()
    .toUpperCase()
    .pipe(z.enum(['BTC', 'ETH', 'USDT'], { error: 'field_invalid' })),
  network: z
    .string({ error: 'field_required' })
    .trim()
    .toUpperCase()
    .pipe(z.enum(['BTC', 'ETH'], { error: 'field_invalid' })),
  address: text(100),
  label: optionalText(40),
  /** The login password again, or the TOTP code when two-factor is on (as /bank/add). */
  password: z.string().max(128).optional(),
  totpCode: z.string().max(6).optional(),
});
export type AddWithdrawAddressInput = z.input<typeof addWithdrawAddressBody>;
export const delWithdrawAddressBody = z.object({ id: recordId() });

// --- the finance desk ---

export const WITHDRAWAL_DESK_VIEWS = ['review', 'paying', 'failed', 'done'] as const;
export const withdrawalDeskQuery = z.object({ view: z.enum(WITHDRAWAL_DESK_VIEWS).default('review') });

export const withdrawalDeskItem = withdrawalView.extend({
  userId: z.number(),
  account: z.string(),
  kycStatus: idStatus,
  /** When the customer registered: a young account is a reason to look twice. */
  accountCreatedAt: z.number(),
  /** Who and where exactly the payout goes (holder and full account, PIX key, or address), to check. */
  payee: z.string(),
});
export type WithdrawalDeskItem = z.infer<typeof withdrawalDeskItem>;

export const withdrawalDecisionBody = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'field_invalid' }),
  /** Every staff action's audit row says why. */
  reason: actionReason(),
});
export type WithdrawalDecisionBody = z.infer<typeof withdrawalDecisionBody>;
