// Crypto deposits, the customer's side: which coins and networks take deposits, the customer's address
// per network (derived from the network's xpub at an index allocated once), the notice of a sent
// deposit (paper mode: a test deposit from the sandbox chain's faucet) and the deposit records.
// Money moves only in watcher.ts, by one engine deposit per confirmed deposit.

import type {
  CryptoAssetNetworkBody,
  CryptoDepositNoticeBody,
  CryptoDepositPageView,
  CryptoDepositView,
  CryptoNetworkView,
  DepositAddressView,
  DepositCoinsView,
} from '@bourse/contract';
import type { Db } from '@bourse/db';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { HDKey } from '@scure/bip32';
import QRCode from 'qrcode';
import type { SandboxChain } from '../../adapters/chain/sandbox/sandbox-chain.ts';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import {
  CRYPTO_NETWORKS,
  type CryptoNetwork,
  type Mode,
  type NetworkCode,
  networkOf,
} from '../../platform/crypto-networks.ts';
import { deriveDepositAddress, MAX_DERIVATION_INDEX, parseExtendedPublicKey } from './derivation.ts';
import * as repo from './repo.ts';
import type { CryptoDepositSettings } from './settings.ts';
import { type DepositWatcher, minimumMinor, scaleOf } from './watcher.ts';

/** The coins deposits are taken in, in the order the app lists them. */
export const DEPOSIT_ASSETS = ['USDT', 'BTC', 'ETH'] as const;

/** A test deposit from the sandbox faucet is at most this much (paper mode; keeps numbers readable). */
const TEST_DEPOSIT_MAX: Record<string, string> = { BTC: '100', ETH: '1000', USDT: '1000000' };

export class CryptoDeposits {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #mode: Mode;
  readonly #settings: CryptoDepositSettings;
  readonly #watcher: DepositWatcher;
  readonly #sandbox: SandboxChain | null;
  readonly #hasChain: (network: NetworkCode, asset: string) => boolean;
  readonly #xpubs = new Map<NetworkCode, HDKey>();

  constructor(deps: {
    db: Db;
    clock: Clock;
    mode: Mode;
    settings: CryptoDepositSettings;
    watcher: DepositWatcher;
    /** Paper mode's sandbox chain (its faucet sends test deposits); null in live mode. */
    sandbox: SandboxChain | null;
    /** Whether a chain port watches the asset's payments on the network (without one, no deposits). */
    hasChain: (network: NetworkCode, asset: string) => boolean;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#mode = deps.mode;
    this.#settings = deps.settings;
    this.#watcher = deps.watcher;
    this.#sandbox = deps.sandbox;
    this.#hasChain = deps.hasChain;
    for (const network of CRYPTO_NETWORKS) {
      const xpub = deps.settings.xpubs[network.code];
      if (xpub) this.#xpubs.set(network.code, parseExtendedPublicKey(xpub));
    }
  }

  #isOpen(network: CryptoNetwork, asset: string): boolean {
    const closed = this.#settings.closed;
    return (
      this.#xpubs.has(network.code) &&
      this.#hasChain(network.code, asset) &&
      !closed.includes('ALL') &&
      !closed.includes(asset) &&
      !closed.includes(network.code)
    );
  }

  #networkView(network: CryptoNetwork, asset: string): CryptoNetworkView {
    return {
      network: network.code,
      name: network.name[this.#mode],
      confirmations: network.confirmations,
      minimum: formatDecimal(minimumMinor(this.#settings, asset), scaleOf(asset)),
      isOpen: this.#isOpen(network, asset),
    };
  }

  coins(): DepositCoinsView {
    return {
      isPaper: this.#mode === 'paper',
      items: DEPOSIT_ASSETS.map((asset) => {
        const networks = CRYPTO_NETWORKS.filter((n) => n.assets.includes(asset)).map((n) =>
          this.#networkView(n, asset),
        );
        return { asset, networks, isOpen: networks.some((n) => n.isOpen) };
      }),
    };
  }

  /** The asset and network asked for, checked in this order: known coin, network carrying it, open. */
  #choose(body: CryptoAssetNetworkBody): { asset: string; network: CryptoNetwork } {
    const asset = body.asset.toUpperCase();
    if (!(DEPOSIT_ASSETS as readonly string[]).includes(asset)) throw fieldError('asset', 'crypto_asset_unknown');
    const network = networkOf(body.network.toUpperCase());
    if (!network?.assets.includes(asset)) throw fieldError('network', 'crypto_network_unsupported');
    if (!this.#isOpen(network, asset)) throw new AppError('deposits_closed');
    return { asset, network };
  }

  async #view(asset: string, network: CryptoNetwork, address: string | null): Promise<DepositAddressView> {
    return {
      asset,
      network: this.#networkView(network, asset),
      address,
      qr: address ? await QRCode.toDataURL(address, { margin: 1, width: 240, errorCorrectionLevel: 'M' }) : null,
    };
  }

  /** The customer's address for the asset and network, or null when none was generated yet. */
  async address(userId: number, body: CryptoAssetNetworkBody): Promise<DepositAddressView> {
    const { asset, network } = this.#choose(body);
    const row = await repo.addressFor(this.#db, userId, network.code);
    return this.#view(asset, network, row?.address ?? null);
  }

  /** Derives and records the customer's address on the network; asking again answers the same one. */
  async generate(userId: number, body: CryptoAssetNetworkBody): Promise<DepositAddressView> {
    const { asset, network } = this.#choose(body);
    return this.#view(asset, network, await this.#ensureAddress(userId, network.code));
  }

  async #ensureAddress(userId: number, network: NetworkCode): Promise<string> {
    const xpub = this.#xpubs.get(network);
    if (!xpub) throw new AppError('deposits_closed');
    // Two customers asking at once may pick the same next index: the unique (network, index) lets one
    // in, and the other takes the next index on its next try.
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await repo.addressFor(this.#db, userId, network);
      if (existing) return existing.address;
      const index = await repo.nextDerivationIndex(this.#db, network);
      if (index > MAX_DERIVATION_INDEX) throw new Error(`${network}: derivation indexes exhausted`);
      const address = deriveDepositAddress(network, xpub, index, this.#mode);
      await repo.insertAddress(this.#db, { userId, network, index, address, at: this.#clock.now() });
    }
    const settled = await repo.addressFor(this.#db, userId, network);
    if (!settled) throw new Error(`${network}: could not allocate a derivation index`);
    return settled.address;
  }

  /**
   * The customer's notice of a sent deposit. With `txid`: the chain is scanned now and the deposit that
   * transaction made to the customer's address is answered (crypto_tx_not_seen if the chain does not
   * show it yet). Paper mode, `amount` without `txid`: the sandbox faucet sends it to the customer's
   * address (generated if need be), the chain is scanned, and the new deposit is answered.
   */
  async notice(userId: number, body: CryptoDepositNoticeBody): Promise<CryptoDepositView> {
    const { asset, network } = this.#choose(body);
    if (body.txid) {
      await this.#watcher.scan();
      // Bitcoin txids are bare hex, EVM ones 0x-prefixed: either spelling of one finds it.
      const bare = body.txid.replace(/^0x/i, '');
      const txid = network.addressKind === 'evm' ? `0x${bare}` : bare;
      const mine = (await repo.depositByTx(this.#db, network.code, txid)).filter(
        (d) => d.user_id === userId && d.asset === asset,
      );
      if (!mine[0]) throw fieldError('txid', 'crypto_tx_not_seen');
      return this.#depositView(mine[0]);
    }
    if (body.amount === undefined) throw fieldError('txid', 'field_required');
    if (this.#mode !== 'paper' || !this.#sandbox) throw new AppError('crypto_test_deposit_paper_only');
    const scale = scaleOf(asset);
    const parsed = tryParseDecimal(body.amount, scale);
    const max = tryParseDecimal(TEST_DEPOSIT_MAX[asset] ?? '0', scale);
    if (!parsed.ok || parsed.minor <= 0n || !max.ok || parsed.minor > max.minor)
      throw fieldError('amount', 'invalid_amount');
    const address = await this.#ensureAddress(userId, network.code);
    const sent = await this.#sandbox.send({
      network: network.code,
      asset,
      address,
      amountMinor: parsed.minor,
      requestKey: body.requestId ? `${userId}:${body.requestId}` : null,
    });
    await this.#watcher.scan();
    const made = (await repo.depositByTx(this.#db, network.code, sent.txid)).find(
      (d) => d.output_index === sent.outputIndex && d.user_id === userId,
    );
    if (!made) throw new Error(`sandbox deposit ${sent.txid} was not recorded by the scan`);
    return this.#depositView(made);
  }

  /** The customer's deposits, newest first, one page; with `id`, that one deposit (theirs only). */
  async orders(
    userId: number,
    query: { id?: number | undefined; page: number; limit: number; asset?: string | undefined },
  ): Promise<CryptoDepositPageView> {
    if (query.id !== undefined) {
      const one = await repo.depositById(this.#db, query.id);
      if (!one || one.user_id !== userId) throw new AppError('crypto_deposit_not_found');
      return { items: [this.#depositView(one)], total: 1 };
    }
    const { rows, total } = await repo.depositsOf(this.#db, userId, {
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
      asset: query.asset,
    });
    return { items: rows.map((r) => this.#depositView(r)), total };
  }

  #depositView(d: repo.DepositRow): CryptoDepositView {
    const network = networkOf(d.network);
    return {
      id: d.id,
      asset: d.asset,
      network: d.network,
      networkName: network ? network.name[this.#mode] : d.network,
      address: d.address,
      txid: d.txid,
      outputIndex: d.output_index,
      amount: formatDecimal(d.amount_minor, scaleOf(d.asset)),
      confirmations: d.confirmations,
      confirmationsRequired: network?.confirmations ?? 0,
      status: d.status,
      reason: d.reason,
      transferId: d.transfer_id,
      seenAt: d.seen_at,
      updatedAt: d.updated_at,
      creditedAt: d.credited_at,
    };
  }
}
