// What the engine says at one sequence number, for the reconciliation: every account's balance, each
// asset's totals by holder, the ledger's invariants (per asset the balances sum to zero, no account but the
// platform's below zero, no hold below zero or above its balance), the live orders and the last order and
// trade ids given out.
// Must hold: taken in one synchronous pass (nothing here awaits), so no command lands between the seq
// and the figures. Must not: change the engine, or read the database.

import type { Discrepancy, ReconciliationAsset } from '@bourse/contract';
import type { Engine } from '@bourse/engine';
import { formatDecimal, SHARE_PREFIX } from '@bourse/money';
import { isMarketMaker } from '../../adapters/venue/paper/paper-venue.ts';

/** What the stored tables are checked against (tables.ts; posted to the worker thread that reads them). */
export type EngineFigures = {
  seq: number;
  /** Every account's key and its balance in minor units, in the engine's order. */
  accountKeys: string[];
  balances: bigint[];
  /** Each asset's scale, to show amounts as decimals. */
  scales: Record<string, number>;
  /** The live orders at seq: id, status (pending or partial) and lots filled. */
  liveOrderIds: number[];
  liveStatuses: string[];
  liveFilledLots: number[];
  /** The last order and trade ids given out by seq: every id from 1 to these has a stored row. */
  lastOrderId: number;
  lastTradeId: number;
};

export type EngineCapture = {
  figures: EngineFigures;
  assets: ReconciliationAsset[];
  discrepancies: Discrepancy[];
};

type Totals = {
  customers: bigint;
  customersHeld: bigint;
  marketMakers: bigint;
  marketMakersHeld: bigint;
  platform: bigint;
  platformByKind: Map<string, bigint>;
  net: bigint;
};

const PLATFORM = 'platform:';

/** The kind a platform account's owner names: `platform:rail:upi` → `rail`, `platform:fees` → `fees`. */
const platformKind = (owner: string) => owner.slice(PLATFORM.length).split(':')[0] as string;

/** The engine's figures at `seq`, the seq of the last command it applied. */
export function captureEngine(engine: Engine, seq: number): EngineCapture {
  const accounts = engine.accounts();
  const accountKeys: string[] = new Array(accounts.length);
  const balances: bigint[] = new Array(accounts.length);
  const scales: Record<string, number> = {};
  const totals = new Map<string, Totals>();
  const discrepancies: Discrepancy[] = [];
  for (let i = 0; i < accounts.length; i++) {
    const account = accounts[i]!;
    // Each read of balance and held makes a bigint: read once.
    const balance = account.balance;
    const held = account.held;
    const { code, scale } = account.asset;
    accountKeys[i] = account.key;
    balances[i] = balance;
    scales[code] = scale;
    let t = totals.get(code);
    if (t === undefined) {
      t = {
        customers: 0n,
        customersHeld: 0n,
        marketMakers: 0n,
        marketMakersHeld: 0n,
        platform: 0n,
        platformByKind: new Map(),
        net: 0n,
      };
      totals.set(code, t);
    }
    t.net += balance;
    const at = (minor: bigint) => formatDecimal(minor, scale);
    if (account.isPlatform) {
      // A platform account may go negative (a rail is minus what came in through it) and holds nothing.
      const kind = platformKind(account.owner);
      t.platform += balance;
      t.platformByKind.set(kind, (t.platformByKind.get(kind) ?? 0n) + balance);
      continue;
    }
    if (isMarketMaker(account.owner)) {
      t.marketMakers += balance;
      t.marketMakersHeld += held;
    } else {
      t.customers += balance;
      t.customersHeld += held;
    }
    if (balance < 0n)
      discrepancies.push({ kind: 'negative_balance', account: account.key, asset: code, balance: at(balance) });
    // A hold above a balance already below zero is that balance's discrepancy, not one of its own.
    if (held < 0n || (balance >= 0n && held > balance))
      discrepancies.push({
        kind: 'hold_out_of_range',
        account: account.key,
        asset: code,
        balance: at(balance),
        held: at(held),
      });
  }
  const assets: ReconciliationAsset[] = [];
  for (const [asset, t] of [...totals].sort(([a], [b]) => assetOrder(a, b))) {
    const scale = scales[asset]!;
    const at = (minor: bigint) => formatDecimal(minor, scale);
    if (t.net !== 0n) discrepancies.push({ kind: 'asset_not_balanced', asset, net: at(t.net) });
    assets.push({
      asset,
      customers: at(t.customers),
      customersHeld: at(t.customersHeld),
      marketMakers: at(t.marketMakers),
      marketMakersHeld: at(t.marketMakersHeld),
      platform: at(t.platform),
      platformByKind: Object.fromEntries([...t.platformByKind].sort().map(([kind, minor]) => [kind, at(minor)])),
      net: at(t.net),
    });
  }
  // The engine's own check goes further (books, each hold against its account, open-order counts); it
  // names only the first thing broken, so it is asked only when the ledger checks above found nothing.
  if (discrepancies.length === 0) {
    const broken = engine.findBrokenInvariant();
    if (broken !== undefined) discrepancies.push({ kind: 'engine_invariant', detail: broken });
  }
  const live = engine.liveOrders();
  const liveOrderIds: number[] = new Array(live.length);
  const liveStatuses: string[] = new Array(live.length);
  const liveFilledLots: number[] = new Array(live.length);
  for (let i = 0; i < live.length; i++) {
    const order = live[i]!;
    liveOrderIds[i] = order.orderId;
    liveStatuses[i] = order.status;
    liveFilledLots[i] = order.filledLots;
  }
  const lastIds = engine.lastIds();
  return {
    figures: {
      seq,
      accountKeys,
      balances,
      scales,
      liveOrderIds,
      liveStatuses,
      liveFilledLots,
      lastOrderId: lastIds.orderId,
      lastTradeId: lastIds.tradeId,
    },
    assets,
    discrepancies,
  };
}

/** Money first, then shares (`SHARE:…`), each alphabetically. */
function assetOrder(a: string, b: string): number {
  const shareA = a.startsWith(SHARE_PREFIX);
  const shareB = b.startsWith(SHARE_PREFIX);
  if (shareA !== shareB) return shareA ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}
