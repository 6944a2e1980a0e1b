// Live Bitcoin through an Esplora-style HTTP API (Blockstream's and mempool.space's shape):
// GET /blocks/tip/height and GET /address/:address/txs. The latter answers the newest transactions of
// the address (up to 50 unconfirmed and the 25 newest confirmed); a watcher that runs every few
// seconds sees each payment there long before 25 newer ones push it out. Older pages
// (/address/:a/txs/chain/:last_txid) are not read.
// Must not: hold or ask for any key; it only reads public chain data.

import type { ChainPort, Fetch, IncomingTransfer } from '../chain-port.ts';

type EsploraTx = {
  txid: string;
  vout: { scriptpubkey_address?: string; value: number }[];
  status: { confirmed: boolean; block_height?: number };
};

export class EsploraBtcChain implements ChainPort {
  readonly network = 'BTC' as const;
  readonly assets = ['BTC'] as const;
  readonly #baseUrl: string;
  readonly #fetch: Fetch;
  constructor(baseUrl: string, fetchImpl: Fetch) {
    this.#baseUrl = baseUrl.replace(/\/$/, '');
    this.#fetch = fetchImpl;
  }

  async #get(path: string): Promise<string> {
    const response = await this.#fetch(`${this.#baseUrl}${path}`);
    if (!response.ok) throw new Error(`esplora ${path}: HTTP ${response.status}`);
    return response.text();
  }

  async tipHeight(): Promise<number> {
    const height = Number((await this.#get('/blocks/tip/height')).trim());
    if (!Number.isSafeInteger(height) || height < 0) throw new Error('esplora: bad tip height');
    return height;
  }

  async incoming(addresses: readonly string[]): Promise<IncomingTransfer[]> {
    const out: IncomingTransfer[] = [];
    for (const address of addresses) {
      const txs = JSON.parse(await this.#get(`/address/${encodeURIComponent(address)}/txs`)) as EsploraTx[];
      for (const tx of txs) {
        tx.vout.forEach((output, index) => {
          if (output.scriptpubkey_address !== address) return;
          // Satoshis arrive as a JSON number; every real amount (< 21e14) is an exact integer in a double.
          if (!Number.isSafeInteger(output.value) || output.value <= 0) return;
          out.push({
            asset: 'BTC',
            txid: tx.txid,
            outputIndex: index,
            address,
            amountMinor: BigInt(output.value),
            blockHeight: tx.status.confirmed && tx.status.block_height !== undefined ? tx.status.block_height : null,
          });
        });
      }
    }
    return out;
  }
}
