// Owns `convert`: a user pays one asset to a platform exchange account and that account pays another
// asset back, as one engine step (currency exchange now, crypto convert later).
// Must hold: both legs post or neither does; the id makes it idempotent for good (a retry answers the
// first two transfers); a refused convert opens no account and moves nothing.
// Must not: price anything: the amounts come from a quote the caller made and showed the user.

import { type Asset, tryParseDecimal } from '@bourse/money';
import { assetOfCode } from './assets.ts';
import { type CommandBase, defineFamily, STR } from './command-family.ts';
import { type ApplyResult, type EngineState, isValidUserId, userOf } from './engine-state.ts';
import {
  accountKey,
  isEngineOwnedId,
  isPlatformAccountName,
  type PlatformAccountName,
  platformOwner,
  transferFingerprint,
  WALLETS,
  type Wallet,
} from './ledger.ts';
import type { EngineRejection } from './rejections.ts';

/**
 * The user pays `amount` of `asset` from `wallet` to the platform account `via`, which pays `toAmount`
 * of `toAsset` into the same wallet. Its transfers are `<id>:pay` and `<id>:receive`, cause `convert`,
 * both linked to `link` (the quote the user accepted).
 */
export type Convert = CommandBase & {
  type: 'convert';
  userId: string;
  wallet: Wallet;
  asset: string;
  amount: string;
  toAsset: string;
  toAmount: string;
  via: PlatformAccountName;
  link?: string;
};

export const CONVERT_CAUSE = 'convert';

/** The ids of a convert's two transfers. */
export function convertTransferIds(id: string): { pay: string; receive: string } {
  return { pay: `${id}:pay`, receive: `${id}:receive` };
}

type Money = { ok: true; asset: Asset; minor: bigint } | { ok: false; code: EngineRejection };

function moneyOf(state: EngineState, assetCode: unknown, amount: unknown): Money {
  if (typeof assetCode !== 'string') return { ok: false, code: 'invalid_command' };
  const asset = assetOfCode(state.assets, assetCode);
  if (!asset) return { ok: false, code: 'unknown_asset' };
  if (typeof amount !== 'string') return { ok: false, code: 'invalid_amount' };
  const parsed = tryParseDecimal(amount, asset.scale);
  if (!parsed.ok || parsed.minor <= 0n) return { ok: false, code: 'invalid_amount' };
  return { ok: true, asset, minor: parsed.minor };
}

function isUserWallet(wallet: unknown): wallet is Wallet {
  return typeof wallet === 'string' && wallet !== 'platform' && (WALLETS as readonly string[]).includes(wallet);
}

export function convert(state: EngineState, command: Convert): ApplyResult {
  if (!isValidUserId(command.userId)) return { ok: false, code: 'invalid_user' };
  const link = command.link === undefined ? `command:${command.id}` : command.link;
  if (
    isEngineOwnedId(command.id) ||
    !isUserWallet(command.wallet) ||
    typeof command.via !== 'string' ||
    !isPlatformAccountName(command.via) ||
    typeof link !== 'string' ||
    link.length > 200
  ) {
    return { ok: false, code: 'invalid_command' };
  }
  const paid = moneyOf(state, command.asset, command.amount);
  if (!paid.ok) return paid;
  const received = moneyOf(state, command.toAsset, command.toAmount);
  if (!received.ok) return received;
  if (paid.asset.code === received.asset.code) return { ok: false, code: 'same_asset' };
  const ledger = state.ledger;
  const ids = convertTransferIds(command.id);
  const exchange = platformOwner(command.via);
  const userPay = accountKey(command.userId, command.wallet, paid.asset.code);
  const userReceive = accountKey(command.userId, command.wallet, received.asset.code);
  // A retry (or a reused id) is answered from the two transfer ids before any account is opened.
  const usedPay = ledger.usedTransfer(
    ids.pay,
    transferFingerprint(userPay, accountKey(exchange, 'platform', paid.asset.code), paid.minor, CONVERT_CAUSE, link),
  );
  const usedReceive = ledger.usedTransfer(
    ids.receive,
    transferFingerprint(
      accountKey(exchange, 'platform', received.asset.code),
      userReceive,
      received.minor,
      CONVERT_CAUSE,
      link,
    ),
  );
  if (usedPay !== undefined || usedReceive !== undefined) {
    if (usedPay?.ok && usedReceive?.ok) return { ok: true, events: [usedPay.posted, usedReceive.posted] };
    return { ok: false, code: 'transfer_id_reused' };
  }
  const from = ledger.find(command.userId, command.wallet, paid.asset.code);
  if (from === undefined || from.isAvailableBelow(paid.minor)) return { ok: false, code: 'insufficient_balance' };
  const user = userOf(state, command.userId);
  // Neither leg can fail now: the user's debit is covered and a platform account may go negative.
  const pay = ledger.transfer({
    id: ids.pay,
    debit: from,
    credit: ledger.platform(command.via, paid.asset),
    amount: paid.minor,
    cause: CONVERT_CAUSE,
    link,
    timeMs: command.timeMs,
  });
  const receive = ledger.transfer({
    id: ids.receive,
    debit: ledger.platform(command.via, received.asset),
    credit: ledger.account(user.id, command.wallet, received.asset),
    amount: received.minor,
    cause: CONVERT_CAUSE,
    link,
    timeMs: command.timeMs,
  });
  if (!pay.ok || !receive.ok) throw new Error(`convert ${command.id}: a leg failed after its checks`);
  return { ok: true, events: [pay.posted, receive.posted] };
}

/** The family (families.ts): convert, journaled as `~X`; toAsset, toAmount and via are its own keys. */
export const CONVERT_FAMILY = defineFamily<Convert, 'same_asset'>({
  name: 'convert',
  commands: {
    convert: {
      code: 'X',
      keys: ['userId', 'wallet', 'asset', 'amount', 'toAsset', 'toAmount', 'via', 'link'],
      apply: convert,
    },
  },
  keys: { toAsset: ['x', STR], toAmount: ['r', STR], via: ['v', STR] },
  rejections: ['same_asset'],
});
