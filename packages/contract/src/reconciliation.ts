// The reconciliation's report as the staff console reads it: the engine's ledger totals per asset at one
// sequence number, what the read tables and the audit chain say against them, and every discrepancy found,
// each of one kind from a closed list. Amounts are decimal strings at their asset's scale.

import { z } from 'zod';

/** The kinds of discrepancy a reconciliation reports; the console explains each in both languages. */
export const DISCREPANCY_KINDS = [
  // The engine's own ledger at the run's seq:
  'asset_not_balanced',
  'negative_balance',
  'hold_out_of_range',
  'engine_invariant',
  // The read tables against the engine at the same seq:
  'balance_mismatch',
  'transfer_amount_invalid',
  'order_row_missing',
  'order_status_mismatch',
  'trade_row_missing',
  // The staff audit log's hash chain, and the previous run's tip:
  'audit_chain_broken',
  'audit_tip_changed',
] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

const amount = z.string();
const account = z.string();
const asset = z.string();

export const discrepancy = z.discriminatedUnion('kind', [
  /** The asset's balances, every account's, do not sum to zero: `net` is what they sum to. */
  z.object({ kind: z.literal('asset_not_balanced'), asset, net: amount }),
  /** An account that is not the platform's is below zero. */
  z.object({ kind: z.literal('negative_balance'), account, asset, balance: amount }),
  /** An account's held amount is below zero or above its balance. */
  z.object({ kind: z.literal('hold_out_of_range'), account, asset, balance: amount, held: amount }),
  /** The engine's own check of books, holds and orders found this (in its words). */
  z.object({ kind: z.literal('engine_invariant'), detail: z.string() }),
  /** The account's transfers in the read table do not sum to its balance in the engine. */
  z.object({ kind: z.literal('balance_mismatch'), account, asset, engine: amount, readModel: amount }),
  /** A transfer row whose amount is not an integer number of minor units (left out of the sums). */
  z.object({ kind: z.literal('transfer_amount_invalid'), transferId: z.string(), amount: z.string() }),
  /** An order placed by the run's seq has no row. */
  z.object({ kind: z.literal('order_row_missing'), orderId: z.number().int() }),
  /** An order's row, as of the run's seq, says another status than the engine (`closed`: not live there). */
  z.object({
    kind: z.literal('order_status_mismatch'),
    orderId: z.number().int(),
    readModel: z.string(),
    engine: z.string(),
  }),
  /** A trade made by the run's seq has no row. */
  z.object({ kind: z.literal('trade_row_missing'), tradeId: z.number().int() }),
  /** The first audit entry at which the hash chain does not verify (it or the one before edited, or removed). */
  z.object({ kind: z.literal('audit_chain_broken'), auditId: z.number().int() }),
  /**
   * The newest audit entry the previous run read (its tip) is gone or has another hash: entries were removed
   * from the end of the log, or it was rewritten with its hashes recomputed.
   */
  z.object({ kind: z.literal('audit_tip_changed'), auditId: z.number().int() }),
]);
export type Discrepancy = z.infer<typeof discrepancy>;

/** One asset's balances at the run's seq, by who holds them. `net` sums them all and must be zero. */
export const reconciliationAsset = z.object({
  asset,
  customers: amount,
  customersHeld: amount,
  /** The paper venue's disclosed liquidity accounts (`mm:<instrument>`). */
  marketMakers: amount,
  marketMakersHeld: amount,
  platform: amount,
  /** The platform's balances by the kind its account names: fees, faucet, liquidity, rail, issuer… */
  platformByKind: z.record(z.string(), amount),
  net: amount,
});
export type ReconciliationAsset = z.infer<typeof reconciliationAsset>;

export const RECONCILIATION_TRIGGERS = ['start_up', 'schedule', 'staff'] as const;

export const reconciliationReport = z.object({
  /** `ok`: no discrepancy; `failed`: at least one. */
  status: z.enum(['ok', 'failed']),
  trigger: z.enum(RECONCILIATION_TRIGGERS),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().int(),
  /** How long the engine's thread was held to take its figures (trading waits meanwhile). */
  engineMs: z.number().int(),
  /** The engine's sequence number the figures and the read tables were compared at. */
  seq: z.number().int(),
  checked: z.object({
    accounts: z.number().int(),
    transfers: z.number().int(),
    liveOrders: z.number().int(),
    trades: z.number().int(),
  }),
  assets: z.array(reconciliationAsset),
  /** The first discrepancies found (at most 100); `discrepancyCount` counts them all. */
  discrepancies: z.array(discrepancy),
  discrepancyCount: z.number().int(),
  /**
   * The audit log: the hash chain recomputed over every entry, and the previous run's tip looked for. A run
   * keeps its tip in memory for the next, so the first run after the server starts has none to look for.
   */
  auditChain: z.object({
    /** The chain verifies, and the previous run's tip (if any) is there unchanged. */
    ok: z.boolean(),
    /** The first entry at which the chain does not verify; null: every entry does. */
    firstBrokenId: z.number().int().nullable(),
    /** This run's tip: the newest entry it read (null: the log is empty), which the next run looks for. */
    tipId: z.number().int().nullable(),
    /** The previous run's tip, looked for here; null when no run before it in this server's lifetime read one. */
    previousTipId: z.number().int().nullable(),
    /** Whether the previous run's tip is gone, or has another hash now. */
    previousTipChanged: z.boolean(),
  }),
});
export type ReconciliationReport = z.infer<typeof reconciliationReport>;

export const reconciliationState = z.object({
  /** The last run's report; null before the first has finished. */
  last: reconciliationReport.nullable(),
  running: z.boolean(),
  /** Minutes between scheduled runs; 0: only runs staff ask for. */
  everyMin: z.number().int(),
});
export type ReconciliationState = z.infer<typeof reconciliationState>;
