// Shapes of crypto deposits (SPEC §7: /index/recharge/coins, /coin/recharge/address[/generate],
// /coin/recharge/add, /coin/recharge/order). Amounts are exact decimal strings in the asset's own scale.
// Must not: check an address or an amount's scale (the server knows the networks and the assets).

import { z } from 'zod';
import { isPlainText, pageQuery, recordId } from './fields.ts';

/** A deposit's life: seen on the chain → confirming → credited; or recorded as below the minimum / failed. */
export const CRYPTO_DEPOSIT_STATUSES = ['seen', 'confirming', 'credited', 'below_minimum', 'failed'] as const;
export type CryptoDepositStatus = (typeof CRYPTO_DEPOSIT_STATUSES)[number];

const code = (max: number) =>
  z
    .string({
      error: (issue) => (issue.input === undefined || issue.input === '' ? 'field_required' : 'field_invalid'),
    })
    .trim()
    .toUpperCase()
    .min(1, { error: 'field_required' })
    .max(max, { error: 'field_invalid' })
    .regex(/^[A-Z0-9]+$/, { error: 'field_invalid' });

/** Which asset, on which network (ETH and USDT share the EVM network, so one address serves both). */
export const cryptoAssetNetworkBody = z.object({ asset: code(12), network: code(12) });
export type CryptoAssetNetworkBody = z.input<typeof cryptoAssetNetworkBody>;

export const cryptoNetworkView = z.object({
  network: z.string(),
  /** Shown to the customer: "Bitcoin testnet", "Ethereum Sepolia (ERC-20)"… */
  name: z.string(),
  confirmations: z.number().int(),
  /** Smallest amount credited; less is recorded and shown as not credited. */
  minimum: z.string(),
  isOpen: z.boolean(),
});
export type CryptoNetworkView = z.infer<typeof cryptoNetworkView>;

export const depositCoinView = z.object({
  asset: z.string(),
  networks: z.array(cryptoNetworkView),
  /** Deposits of this asset can be made on at least one network now. */
  isOpen: z.boolean(),
});
export type DepositCoinView = z.infer<typeof depositCoinView>;

export const depositCoinsView = z.object({
  items: z.array(depositCoinView),
  /** Paper mode: test networks, and the sandbox chain's faucet can send a test deposit. */
  isPaper: z.boolean(),
});
export type DepositCoinsView = z.infer<typeof depositCoinsView>;

export const depositAddressView = z.object({
  asset: z.string(),
  network: cryptoNetworkView,
  /** null until generated (POST /coin/recharge/address/generate). */
  address: z.string().nullable(),
  /** The address as a QR code (PNG data: URL); null with the address. */
  qr: z.string().nullable(),
});
export type DepositAddressView = z.infer<typeof depositAddressView>;

/**
 * POST /coin/recharge/add, the customer's notice of a sent deposit:
 * - `txid`: "I sent this transaction": the chain is looked at now and the deposit it made is answered.
 * - paper mode only, `amount` without `txid`: the sandbox chain's faucet sends `amount` of `asset` to
 *   the customer's address, so the flow can be tried; `requestId` makes a retry send nothing twice.
 */
export const cryptoDepositNoticeBody = cryptoAssetNetworkBody.extend({
  txid: z
    .string({ error: 'field_invalid' })
    .trim()
    .regex(/^(0x)?[0-9a-fA-F]{64}$/, { error: 'field_invalid' })
    .optional(),
  amount: z
    .string({ error: 'field_invalid' })
    .trim()
    .regex(/^\d{1,18}(\.\d{1,18})?$/, { error: 'invalid_amount' })
    .optional(),
  requestId: z.string().trim().min(8).max(64).refine(isPlainText, { error: 'field_invalid' }).optional(),
});
export type CryptoDepositNoticeBody = z.input<typeof cryptoDepositNoticeBody>;

export const cryptoDepositView = z.object({
  id: z.number().int(),
  asset: z.string(),
  network: z.string(),
  networkName: z.string(),
  address: z.string(),
  txid: z.string(),
  outputIndex: z.number().int(),
  amount: z.string(),
  confirmations: z.number().int(),
  confirmationsRequired: z.number().int(),
  status: z.enum(CRYPTO_DEPOSIT_STATUSES),
  /**
   * Why it was not credited; empty otherwise. below_minimum: `below_minimum:<the minimum then in
   * force>`; failed: the engine's rejection code.
   */
  reason: z.string(),
  /** The ledger transfer that credited it (its link is crypto-deposit:<id>); null until credited. */
  transferId: z.string().nullable(),
  seenAt: z.number(),
  updatedAt: z.number(),
  creditedAt: z.number().nullable(),
});
export type CryptoDepositView = z.infer<typeof cryptoDepositView>;

export const cryptoDepositOrderQuery = pageQuery.extend({
  id: recordId().optional(),
  asset: code(12).optional(),
});

export const cryptoDepositPageView = z.object({
  items: z.array(cryptoDepositView),
  total: z.number().int(),
});
export type CryptoDepositPageView = z.infer<typeof cryptoDepositPageView>;
