// The chain port: what crypto deposits ask of a blockchain (features/crypto-deposits/watcher.ts), one
// port per network. Adapters: sandbox/ (paper mode: a chain in our own table whose blocks follow the
// injected clock), esplora/ (Bitcoin through an Esplora-style HTTP API) and evm-rpc/ (an ERC-20 token's
// Transfer logs through Ethereum JSON-RPC). Amounts are exact minor units of the asset.

import type { NetworkCode } from '../../platform/crypto-networks.ts';

/** One payment to one of our addresses: a BTC output, or an ERC-20 Transfer log. */
export type IncomingTransfer = {
  asset: string;
  txid: string;
  /** The output's index in its transaction (BTC vout), or the log's index in its block (ERC-20). */
  outputIndex: number;
  /** The receiving address, as one of the addresses asked about is spelled. */
  address: string;
  amountMinor: bigint;
  /** The block it was mined in; null while it waits in the mempool. */
  blockHeight: number | null;
};

export type ChainPort = {
  readonly network: NetworkCode;
  /** The assets this adapter sees payments of (a JSON-RPC log reader sees tokens, not native ETH). */
  readonly assets: readonly string[];
  /** The height of the newest block. */
  tipHeight(): Promise<number>;
  /** Payments to any of `addresses` the chain knows of (recent ones at least; see each adapter). */
  incoming(addresses: readonly string[]): Promise<IncomingTransfer[]>;
};

/** Confirmations of a transfer at `tip`: 0 in the mempool, 1 in the newest block, and so on. */
export function confirmationsAt(transfer: { blockHeight: number | null }, tip: number): number {
  if (transfer.blockHeight === null || transfer.blockHeight > tip) return 0;
  return tip - transfer.blockHeight + 1;
}

/** fetch as the live adapters use it (injected, so tests answer from recorded responses). */
export type Fetch = (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string },
) => Promise<{
  ok: boolean;
  status: number;
  text(): Promise<string>;
}>;
