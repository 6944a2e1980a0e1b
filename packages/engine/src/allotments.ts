// Owns the settlement of primary-market subscriptions (IPO applications, block-trade bids, coin-offering
// commitments): one command that, for every subscription of a batch at once, pays the allotted part of its
// funds hold to the issuer, delivers the allotted quantity from the issuer, optionally locks it (shares
// locked until listing) and releases the rest of the hold (decision 0029).
// Must hold: all or nothing (every entry is checked before anything moves); each hold is settled once; the
// issuer's platform account is the only counterparty (its balance of the asset is minus what it allotted).
// Must not: decide who gets what: the host computes the allocation (a seeded draw, pro-rata) and sends it.

import { type Asset, tryParseDecimal } from '@bourse/money';
import { assetOfCode } from './assets.ts';
import { BOOL, type CommandBase, defineFamily, JSONV } from './command-family.ts';
import { type ApplyResult, type EngineState, userOf } from './engine-state.ts';
import type { EngineEvent } from './events.ts';
import {
  type Hold,
  isEngineOwnedId,
  isPlatformAccountName,
  type PlatformAccountName,
  WALLETS,
  type Wallet,
} from './ledger.ts';

/** One subscription's outcome: the funds hold it was made with, what it pays, what it receives. */
export type AllotmentEntry = readonly [holdId: string, pay: string, qty: string];

/**
 * Settles a batch of subscriptions to an offering of `asset` from the issuer account `to`
 * (`issuer:<name>`). For each entry [holdId, pay, qty]: `pay` (in the hold's asset, at most what the hold
 * has left; "0" for none) is posted to `to`, `qty` of `asset` (may be "0") is credited from `to` to the
 * hold's owner in `wallet`, held under `lock:<holdId>` when `lock` is set (shares before listing), and what
 * is left of the hold is released. Transfer ids: `<holdId>:allot` (payment), `<holdId>:deliver` (asset).
 */
export type SettleAllotment = CommandBase & {
  type: 'settle_allotment';
  to: PlatformAccountName;
  asset: string;
  wallet: Wallet;
  lock?: boolean;
  entries: readonly AllotmentEntry[];
  link?: string;
};

/** The hold that keeps allotted shares until listing day (released by `void_hold`). */
export function allotmentLockId(holdId: string): string {
  return `lock:${holdId}`;
}

/** Largest batch one command settles: bounds a journal line (the host sends bigger draws in batches). */
export const ALLOTMENT_BATCH_MAX = 5_000;

type Checked = { hold: Hold; pay: bigint; qty: bigint };

function check(state: EngineState, command: SettleAllotment, asset: Asset): Checked[] | undefined {
  const { entries } = command;
  if (!Array.isArray(entries) || entries.length === 0 || entries.length > ALLOTMENT_BATCH_MAX) return undefined;
  const seen = new Set<string>();
  const checked: Checked[] = [];
  for (const entry of entries) {
    if (!Array.isArray(entry) || entry.length !== 3) return undefined;
    const [holdId, payText, qtyText] = entry;
    if (typeof holdId !== 'string' || seen.has(holdId)) return undefined;
    seen.add(holdId);
    const hold = state.ledger.holds.get(holdId);
    if (hold === undefined || hold.kind !== 'funds' || hold.account.isPlatform) return undefined;
    const pay = typeof payText === 'string' ? tryParseDecimal(payText, hold.account.asset.scale) : undefined;
    const qty = typeof qtyText === 'string' ? tryParseDecimal(qtyText, asset.scale) : undefined;
    if (!pay?.ok || !qty?.ok || pay.minor < 0n || qty.minor < 0n || hold.isBelow(pay.minor)) return undefined;
    // Something allotted is paid for, and a payment buys something.
    if ((pay.minor === 0n) !== (qty.minor === 0n)) return undefined;
    const ids = [`${holdId}:allot`, `${holdId}:deliver`];
    if (ids.some((id) => state.ledger.usedIds.has(id))) return undefined;
    if (command.lock === true && qty.minor > 0n && !state.ledger.isHoldIdFree(allotmentLockId(holdId)))
      return undefined;
    checked.push({ hold, pay: pay.minor, qty: qty.minor });
  }
  return checked;
}

export function settleAllotment(state: EngineState, command: SettleAllotment): ApplyResult {
  if (
    isEngineOwnedId(command.id) ||
    typeof command.to !== 'string' ||
    !isPlatformAccountName(command.to) ||
    !command.to.startsWith('issuer:') ||
    typeof command.wallet !== 'string' ||
    command.wallet === 'platform' ||
    !(WALLETS as readonly string[]).includes(command.wallet) ||
    (command.lock !== undefined && typeof command.lock !== 'boolean') ||
    (command.link !== undefined && (typeof command.link !== 'string' || command.link.length > 200))
  ) {
    return { ok: false, code: 'invalid_command' };
  }
  const asset = typeof command.asset === 'string' ? assetOfCode(state.assets, command.asset) : undefined;
  if (!asset) return { ok: false, code: 'unknown_asset' };
  const checked = check(state, command, asset);
  if (!checked) return { ok: false, code: 'allocation_invalid' };

  const ledger = state.ledger;
  const issuerAsset = ledger.platform(command.to, asset);
  const events: EngineEvent[] = [];
  for (const { hold, pay, qty } of checked) {
    const link = command.link ?? hold.link;
    if (pay > 0n) {
      const paid = ledger.postFromHold(
        hold,
        ledger.platform(command.to, hold.account.asset),
        pay,
        `${hold.id}:allot`,
        'allotment',
        link,
        command.timeMs,
      );
      ledger.recordUsedId(`${hold.id}:allot`, `allot:${hold.id}`, paid);
      events.push(paid);
      const owner = userOf(state, hold.account.owner);
      const account = ledger.account(owner.id, command.wallet, asset);
      const delivered = ledger.move(issuerAsset, account, qty, `${hold.id}:deliver`, 'allotment', link, command.timeMs);
      ledger.recordUsedId(`${hold.id}:deliver`, `deliver:${hold.id}`, delivered);
      events.push(delivered);
      if (command.lock === true) {
        const lockId = allotmentLockId(hold.id);
        const locked = ledger.createHold(lockId, 'funds', account, qty, 'allotment', link);
        // Credited a moment ago and nothing else ran since: failing here is a bug.
        if (!locked.ok) throw new Error(`allotment lock ${lockId}: ${locked.code}`);
        events.push({ type: 'hold_placed', holdId: lockId, account: account.key, amount: qty, timeMs: command.timeMs });
      }
    }
    // postFromHold forgets a hold it empties; what is left of one still there is refunded.
    if (ledger.holds.get(hold.id) === hold) {
      const amount = hold.remaining;
      ledger.close(hold);
      events.push({
        type: 'hold_released',
        holdId: hold.id,
        account: hold.account.key,
        amount,
        timeMs: command.timeMs,
      });
    }
  }
  return { ok: true, events };
}

/** The family (families.ts). */
export const ALLOTMENTS_FAMILY = defineFamily<SettleAllotment, 'allocation_invalid'>({
  name: 'allotments',
  commands: {
    settle_allotment: { code: 'B', keys: ['to', 'asset', 'wallet', 'lock', 'entries', 'link'], apply: settleAllotment },
  },
  keys: { entries: ['A', JSONV], lock: ['L', BOOL] },
  rejections: ['allocation_invalid'],
});
