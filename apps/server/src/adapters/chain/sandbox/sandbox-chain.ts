// Paper mode's blockchain: transactions live in sandbox_chain_txs, and blocks follow the injected clock
// (block h is mined at h × blockMs of the network; a transaction sent at t is in the first block after
// t), so a test deposit gains confirmations as time passes, exactly as on a real chain.
// The faucet is its only source of coins: it sends whatever amount a customer asks for, which is
// fine because these are test-network coins that cannot exist anywhere else.
// Must not: be wired in live mode (app.ts wires it only in paper mode).

import { randomBytes } from 'node:crypto';
import type { Db, Sql } from '@bourse/db';
import type { Clock } from '../../../platform/clock.ts';
import { type NetworkCode, networkOf } from '../../../platform/crypto-networks.ts';
import type { ChainPort, IncomingTransfer } from '../chain-port.ts';

export type SandboxSend = {
  network: NetworkCode;
  asset: string;
  address: string;
  amountMinor: bigint;
  /** Idempotency: a second send with the same key answers the first transaction and sends nothing. */
  requestKey: string | null;
};

type TxRow = {
  asset: string;
  txid: string;
  output_index: number;
  address: string;
  amount_minor: string;
  sent_at: number;
};

export class SandboxChain {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #blockMs: Record<NetworkCode, number>;
  readonly #random: (bytes: number) => Uint8Array;
  constructor(deps: {
    db: Db;
    clock: Clock;
    blockMs: Record<NetworkCode, number>;
    random?: (bytes: number) => Uint8Array;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#blockMs = deps.blockMs;
    this.#random = deps.random ?? ((n) => randomBytes(n));
  }

  /** The block that holds a transaction sent at `sentAt`: the first one mined after it. */
  blockOf(network: NetworkCode, sentAt: number): number {
    return Math.floor(sentAt / this.#blockMs[network]) + 1;
  }

  tipHeight(network: NetworkCode): number {
    return Math.floor(this.#clock.now() / this.#blockMs[network]);
  }

  /** The faucet sends a transaction; answers its txid (the first one's for a repeated request key). */
  async send(s: SandboxSend, db: Sql = this.#db): Promise<{ txid: string; outputIndex: number }> {
    if (s.requestKey !== null) {
      const rows = await db.query<{ txid: string; output_index: number }>(
        'SELECT txid, output_index FROM sandbox_chain_txs WHERE request_key = $1',
        [s.requestKey],
      );
      if (rows[0]) return { txid: rows[0].txid, outputIndex: Number(rows[0].output_index) };
    }
    const hex = Buffer.from(this.#random(32)).toString('hex');
    const txid = s.network === 'BTC' ? hex : `0x${hex}`;
    // ERC-20 transfers are logs; native sends and BTC outputs take index 0 of their own transaction.
    const inserted = await db.query<{ txid: string; output_index: number }>(
      `INSERT INTO sandbox_chain_txs (network, asset, txid, output_index, address, amount_minor, sent_at, request_key)
       VALUES ($1, $2, $3, 0, $4, $5, $6, $7)
       ON CONFLICT (request_key) DO NOTHING RETURNING txid, output_index`,
      [s.network, s.asset, txid, s.address, s.amountMinor.toString(), this.#clock.now(), s.requestKey],
    );
    if (inserted[0]) return { txid: inserted[0].txid, outputIndex: Number(inserted[0].output_index) };
    // A concurrent send with the same key won the insert: answer its transaction.
    if (s.requestKey === null) throw new Error('sandbox chain: insert without a request key returned nothing');
    return this.send(s, db);
  }

  port(network: NetworkCode): ChainPort {
    return {
      network,
      assets: networkOf(network)?.assets ?? [],
      tipHeight: async () => this.tipHeight(network),
      incoming: (addresses) => this.#incoming(network, addresses),
    };
  }

  async #incoming(network: NetworkCode, addresses: readonly string[]): Promise<IncomingTransfer[]> {
    if (addresses.length === 0) return [];
    const now = this.#clock.now();
    const wanted = new Set(addresses);
    // The whole (small) sandbox chain of this network is read, then filtered: no IN list of thousands.
    const rows = await this.#db.query<TxRow>(
      `SELECT asset, txid, output_index, address, amount_minor, sent_at FROM sandbox_chain_txs
       WHERE network = $1 AND sent_at <= $2 ORDER BY id`,
      [network, now],
    );
    const tip = this.tipHeight(network);
    return rows
      .filter((r) => wanted.has(r.address))
      .map((r) => {
        const block = this.blockOf(network, Number(r.sent_at));
        return {
          asset: r.asset,
          txid: r.txid,
          outputIndex: Number(r.output_index),
          address: r.address,
          amountMinor: BigInt(r.amount_minor),
          blockHeight: block <= tip ? block : null,
        };
      });
  }
}
