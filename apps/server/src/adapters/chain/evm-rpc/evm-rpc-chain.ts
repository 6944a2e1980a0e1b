// Live EVM network through Ethereum JSON-RPC: the tip (eth_blockNumber) and an ERC-20 token's Transfer
// logs to our addresses (eth_getLogs filtered by the token contract, the Transfer topic and the
// receiving address as topic 2), over the last `lookbackBlocks` blocks.
// Covers tokens (USDT) only: native ETH payments leave no log, so a live deployment needs an indexer
// for them (not built; paper mode's sandbox chain carries both). Reads public data only, no key.

import { toChecksumAddress } from '../../../platform/crypto-networks.ts';
import type { ChainPort, Fetch, IncomingTransfer } from '../chain-port.ts';

/** keccak256("Transfer(address,address,uint256)"). */
export const ERC20_TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

type RpcLog = {
  transactionHash: string;
  logIndex: string;
  blockNumber: string | null;
  data: string;
  topics: string[];
  removed?: boolean;
};

export type EvmToken = { asset: string; contract: string };

export class EvmRpcChain implements ChainPort {
  readonly network = 'ETH' as const;
  readonly #url: string;
  readonly #fetch: Fetch;
  readonly #tokens: readonly EvmToken[];
  readonly #lookbackBlocks: number;
  #nextId = 1;
  constructor(deps: { url: string; fetch: Fetch; tokens: readonly EvmToken[]; lookbackBlocks?: number }) {
    this.#url = deps.url;
    this.#fetch = deps.fetch;
    this.#tokens = deps.tokens;
    this.#lookbackBlocks = deps.lookbackBlocks ?? 5_000;
  }

  get assets(): readonly string[] {
    return this.#tokens.map((t) => t.asset);
  }

  async #rpc<T>(method: string, params: unknown[]): Promise<T> {
    const response = await this.#fetch(this.#url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: this.#nextId++, method, params }),
    });
    if (!response.ok) throw new Error(`evm rpc ${method}: HTTP ${response.status}`);
    const body = JSON.parse(await response.text()) as { result?: T; error?: { message: string } };
    if (body.error || body.result === undefined)
      throw new Error(`evm rpc ${method}: ${body.error?.message ?? 'no result'}`);
    return body.result;
  }

  async tipHeight(): Promise<number> {
    return Number(BigInt(await this.#rpc<string>('eth_blockNumber', [])));
  }

  async incoming(addresses: readonly string[]): Promise<IncomingTransfer[]> {
    if (addresses.length === 0) return [];
    const ours = new Map(addresses.map((a) => [a.toLowerCase(), a]));
    const tip = await this.tipHeight();
    const fromBlock = `0x${Math.max(0, tip - this.#lookbackBlocks).toString(16)}`;
    const recipients = addresses.map((a) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`);
    const out: IncomingTransfer[] = [];
    for (const token of this.#tokens) {
      const logs = await this.#rpc<RpcLog[]>('eth_getLogs', [
        {
          fromBlock,
          toBlock: 'latest',
          address: token.contract,
          topics: [ERC20_TRANSFER_TOPIC, null, recipients],
        },
      ]);
      for (const log of logs) {
        if (log.removed || log.topics[0] !== ERC20_TRANSFER_TOPIC || !log.topics[2]) continue;
        const to = toChecksumAddress(`0x${log.topics[2].slice(-40)}`);
        const address = ours.get(to.toLowerCase());
        if (!address) continue;
        const amountMinor = BigInt(log.data === '0x' ? 0 : log.data);
        if (amountMinor <= 0n) continue;
        out.push({
          asset: token.asset,
          txid: log.transactionHash,
          outputIndex: Number(BigInt(log.logIndex)),
          address,
          amountMinor,
          blockHeight: log.blockNumber === null ? null : Number(BigInt(log.blockNumber)),
        });
      }
    }
    return out;
  }
}
