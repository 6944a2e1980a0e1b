// The crypto deposit watcher: a scheduled job that asks each network's chain port for payments to our
// deposit addresses, records each once per (network, txid, output index), follows its confirmations,
// and credits it after the network's confirmation count with ONE engine `deposit` from the network's
// rail account (cause deposit, link crypto-deposit:<id>) into the customer's spot wallet.
// Must hold: the credit's command id is derived from the deposit row (crypto-deposit:<id>), so a scan
// that stopped between the engine's commit and the row's update, or ran after a restart, resends the
// same command and the engine answers the first result: a deposit is credited at most once.
// Must not: credit below the asset's minimum (those are recorded as below_minimum, with the reason).

import type { Db } from '@bourse/db';
import { ASSETS, formatDecimal, parseDecimal } from '@bourse/money';
import type { ChainPort, IncomingTransfer } from '../../adapters/chain/chain-port.ts';
import { confirmationsAt } from '../../adapters/chain/chain-port.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import type { Clock } from '../../platform/clock.ts';
import { type NetworkCode, networkOf } from '../../platform/crypto-networks.ts';
import * as repo from './repo.ts';
import type { CryptoDepositSettings } from './settings.ts';

/** The platform account a network's deposits come from (may go negative: what users deposited). */
export function railAccount(network: string): `rail:${string}` {
  return `rail:crypto-${network.toLowerCase()}`;
}

/** The engine command (and ledger transfer) id of a deposit's credit. */
export const creditCommandId = (depositId: number) => `crypto-deposit:${depositId}`;

/** The scale (decimals) of a crypto asset the networks carry. */
export function scaleOf(asset: string): number {
  const known = (ASSETS as Record<string, { scale: number } | undefined>)[asset];
  if (!known) throw new Error(`unknown crypto asset ${asset}`);
  return known.scale;
}

/** The asset's minimum as minor units, rounded up: nothing below the configured minimum is credited. */
export function minimumMinor(settings: CryptoDepositSettings, asset: string): bigint {
  return parseDecimal(settings.minimums[asset] ?? '0', scaleOf(asset), 'up');
}

export type ScanReport = { recorded: number; credited: number; failed: number };

export class DepositWatcher {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #engine: TradingEngine;
  readonly #ports: ReadonlyMap<NetworkCode, ChainPort>;
  readonly #settings: CryptoDepositSettings;
  readonly #log: (message: string, error?: unknown) => void;
  #running: Promise<ScanReport> | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(deps: {
    db: Db;
    clock: Clock;
    engine: TradingEngine;
    ports: ReadonlyMap<NetworkCode, ChainPort>;
    settings: CryptoDepositSettings;
    log: (message: string, error?: unknown) => void;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#engine = deps.engine;
    this.#ports = deps.ports;
    this.#settings = deps.settings;
    this.#log = deps.log;
  }

  /** Scans every `everyMs` (0: never by itself; tests and the test clock hook call scan()). */
  start(everyMs: number): void {
    if (everyMs <= 0 || this.#timer) return;
    this.#timer = setInterval(() => {
      this.scan().catch((error) => this.#log('crypto deposit scan failed', error));
    }, everyMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => {});
  }

  /** One scan of every network; a scan asked for while one runs waits for it and then runs again. */
  scan(): Promise<ScanReport> {
    const previous = this.#running ?? Promise.resolve(null);
    const next = previous.catch(() => null).then(() => this.#scanAll());
    this.#running = next;
    next
      .finally(() => {
        if (this.#running === next) this.#running = null;
      })
      .catch(() => {});
    return next;
  }

  async #scanAll(): Promise<ScanReport> {
    const report: ScanReport = { recorded: 0, credited: 0, failed: 0 };
    for (const [network, port] of this.#ports) {
      let one: ScanReport;
      try {
        one = await this.#scanNetwork(network, port);
      } catch (error) {
        // One chain unreachable (its API down) must not stop the others; the next scan tries again.
        this.#log(`crypto deposit scan of ${network} failed`, error);
        continue;
      }
      report.recorded += one.recorded;
      report.credited += one.credited;
      report.failed += one.failed;
    }
    return report;
  }

  async #scanNetwork(network: NetworkCode, port: ChainPort): Promise<ScanReport> {
    const report: ScanReport = { recorded: 0, credited: 0, failed: 0 };
    const spec = networkOf(network);
    if (!spec) return report;
    const addresses = await repo.addressesOn(this.#db, network);
    if (addresses.length === 0) return report;
    const owners = new Map(addresses.map((a) => [a.address.toLowerCase(), a]));
    const tip = await port.tipHeight();
    const transfers = await port.incoming(addresses.map((a) => a.address));
    const byKey = new Map<string, IncomingTransfer>();
    for (const transfer of transfers) {
      const owner = owners.get(transfer.address.toLowerCase());
      // A payment of an asset this network does not carry for us (another token) is not ours to credit.
      if (!owner || !spec.assets.includes(transfer.asset) || !port.assets.includes(transfer.asset)) continue;
      byKey.set(`${transfer.txid.toLowerCase()}:${transfer.outputIndex}`, transfer);
      if (await this.#record(network, owner.user_id, transfer, tip)) report.recorded++;
    }
    for (const deposit of await repo.openDeposits(this.#db, network)) {
      const transfer = byKey.get(`${deposit.txid.toLowerCase()}:${deposit.output_index}`);
      // Not answered this time (an adapter's window, a reorg): it keeps its last state until it is.
      if (!transfer) continue;
      const confirmations = confirmationsAt(transfer, tip);
      if (confirmations >= spec.confirmations) {
        const credited = await this.#credit(deposit, confirmations);
        if (credited) report.credited++;
        else report.failed++;
      } else if (confirmations !== deposit.confirmations || (confirmations > 0 && deposit.status === 'seen')) {
        const to = confirmations > 0 ? 'confirming' : deposit.status;
        await this.#move(deposit, { to, confirmations, at: this.#clock.now() });
      }
    }
    return report;
  }

  /** Records a payment once; below the minimum it is recorded as such and never credited. */
  async #record(network: NetworkCode, userId: number, transfer: IncomingTransfer, tip: number): Promise<boolean> {
    const scale = scaleOf(transfer.asset);
    const minimum = minimumMinor(this.#settings, transfer.asset);
    const confirmations = confirmationsAt(transfer, tip);
    const isBelow = transfer.amountMinor < minimum;
    const status = isBelow ? 'below_minimum' : confirmations > 0 ? 'confirming' : 'seen';
    return this.#db.transaction(async (tx) => {
      if (!(await repo.transitionAllowed(tx, 'none', status))) throw new Error(`transition none → ${status} refused`);
      const id = await repo.insertDeposit(tx, {
        userId,
        network,
        asset: transfer.asset,
        address: transfer.address,
        txid: transfer.txid,
        outputIndex: transfer.outputIndex,
        amountMinor: transfer.amountMinor,
        confirmations,
        status,
        // The minimum in force when it arrived, so the reason stays true if the setting changes later.
        reason: isBelow ? `below_minimum:${formatDecimal(minimum, scale)}` : '',
        at: this.#clock.now(),
      });
      return id !== null;
    });
  }

  /** Credits a confirmed deposit with one engine deposit; true when it is (or already was) credited. */
  async #credit(deposit: repo.DepositRow, confirmations: number): Promise<boolean> {
    const scale = scaleOf(deposit.asset);
    const id = creditCommandId(deposit.id);
    const result = await this.#engine.submit({
      type: 'deposit',
      id,
      userId: String(deposit.user_id),
      wallet: 'spot',
      asset: deposit.asset,
      amount: formatDecimal(deposit.amount_minor, scale),
      from: railAccount(deposit.network),
      cause: 'deposit',
      link: id,
    });
    const at = this.#clock.now();
    if (result.ok) {
      await this.#move(deposit, {
        to: 'credited',
        confirmations,
        at,
        transferId: id,
      });
      return true;
    }
    // The engine refused (an asset it does not know, say): recorded as failed with its reason, and
    // logged, because a confirmed payment that cannot be credited needs a person.
    this.#log(`crypto deposit ${deposit.id} could not be credited: ${result.code}`);
    await this.#move(deposit, { to: 'failed', confirmations, at, reason: result.code });
    return false;
  }

  /** A change of state must be in crypto_deposit_transitions (a bug otherwise: it throws). */
  async #move(deposit: repo.DepositRow, change: Parameters<typeof repo.moveDeposit>[3]): Promise<void> {
    if (change.to !== deposit.status && !(await repo.transitionAllowed(this.#db, deposit.status, change.to)))
      throw new Error(`crypto deposit ${deposit.id}: transition ${deposit.status} → ${change.to} refused`);
    await repo.moveDeposit(this.#db, deposit.id, deposit.status, change);
  }
}
