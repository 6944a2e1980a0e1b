// Owns the commands that move money outside trading: deposits and grants from platform accounts,
// transfers between a user's wallets, and funds holds (pending transfers) with post and void.
// Must hold: every movement is one ledger transfer with a cause and a link; ids are idempotent.
// Must not: touch order books.

import { type Asset, tryParseDecimal } from '@bourse/money';
import { assetOfCode } from './assets.ts';
import { type CommandBase, defineFamily, STR } from './command-family.ts';
import { type ApplyResult, type EngineState, isValidUserId, userOf } from './engine-state.ts';
import type { EngineEvent } from './events.ts';
import {
  accountKey,
  isEngineOwnedId,
  isPlatformAccountName,
  type PlatformAccountName,
  platformOwner,
  TRANSFER_CAUSES,
  type TransferCause,
  type TransferOutcome,
  transferFingerprint,
  WALLETS,
  type Wallet,
} from './ledger.ts';
import type { EngineRejection } from './rejections.ts';

/** Platform account → user: a deposit through a rail, a paper-money grant, an allotment, an adjustment… */
export type Deposit = CommandBase & {
  type: 'deposit';
  userId: string;
  wallet: Wallet;
  asset: string;
  amount: string;
  from: PlatformAccountName;
  cause: TransferCause;
  link?: string;
};

/**
 * Platform account → platform account: the insurance fund seeded from platform liquidity (decision
 * 0028). Only accounts a command may name (not the clearing or funding pools, which the engine keeps).
 */
export type PlatformTransfer = CommandBase & {
  type: 'platform_transfer';
  from: PlatformAccountName;
  to: PlatformAccountName;
  asset: string;
  amount: string;
  cause: TransferCause;
  link?: string;
};

/** Between two wallets of one user, same asset. */
export type WalletTransfer = CommandBase & {
  type: 'wallet_transfer';
  userId: string;
  asset: string;
  fromWallet: Wallet;
  toWallet: Wallet;
  amount: string;
};

/** Reserves user funds as a pending transfer (a withdrawal waiting for its rail); its id is the hold id. */
export type HoldFunds = CommandBase & {
  type: 'hold_funds';
  userId: string;
  wallet: Wallet;
  asset: string;
  amount: string;
  cause: TransferCause;
  link?: string;
};

/**
 * Posts all or part of a funds hold to a platform account; what is not posted stays held. With `fee`,
 * that part of the posted amount goes to the platform's `fees` account instead (a withdrawal's fee, taken
 * from the amount), in the same step: `to` gets amount − fee.
 */
export type PostHold = CommandBase & {
  type: 'post_hold';
  holdId: string;
  to: PlatformAccountName;
  amount?: string;
  fee?: string;
};

export type VoidHold = CommandBase & { type: 'void_hold'; holdId: string };

type Parsed<T> = { ok: true; value: T } | { ok: false; code: EngineRejection };

function parseMoney(state: EngineState, assetCode: unknown, amount: unknown): Parsed<{ asset: Asset; minor: bigint }> {
  if (typeof assetCode !== 'string') return { ok: false, code: 'invalid_command' };
  const asset = assetOfCode(state.assets, assetCode);
  if (!asset) return { ok: false, code: 'unknown_asset' };
  if (typeof amount !== 'string') return { ok: false, code: 'invalid_amount' };
  const parsed = tryParseDecimal(amount, asset.scale);
  if (!parsed.ok || parsed.minor <= 0n) return { ok: false, code: 'invalid_amount' };
  return { ok: true, value: { asset, minor: parsed.minor } };
}

function isUserWallet(wallet: unknown): wallet is Wallet {
  return typeof wallet === 'string' && wallet !== 'platform' && (WALLETS as readonly string[]).includes(wallet);
}

function isCause(cause: unknown): cause is TransferCause {
  return typeof cause === 'string' && (TRANSFER_CAUSES as readonly string[]).includes(cause);
}

function linkOf(link: unknown, fallback: string): string | undefined {
  if (link === undefined) return fallback;
  return typeof link === 'string' && link.length <= 200 ? link : undefined;
}

export function deposit(state: EngineState, command: Deposit): ApplyResult {
  if (!isValidUserId(command.userId)) return { ok: false, code: 'invalid_user' };
  const link = linkOf(command.link, `command:${command.id}`);
  if (
    isEngineOwnedId(command.id) ||
    !isUserWallet(command.wallet) ||
    !isPlatformAccountName(command.from) ||
    !isCause(command.cause) ||
    !link
  ) {
    return { ok: false, code: 'invalid_command' };
  }
  const money = parseMoney(state, command.asset, command.amount);
  if (!money.ok) return money;
  const { asset, minor } = money.value;
  const ledger = state.ledger;
  // A retry or a reused id is answered before the user or any account is opened.
  const fingerprint = transferFingerprint(
    accountKey(platformOwner(command.from), 'platform', asset.code),
    accountKey(command.userId, command.wallet, asset.code),
    minor,
    command.cause,
    link,
  );
  const used = ledger.usedTransfer(command.id, fingerprint);
  if (used !== undefined) return answerOf(used);
  const user = userOf(state, command.userId);
  return answerOf(
    ledger.transfer({
      id: command.id,
      debit: ledger.platform(command.from, asset),
      credit: ledger.account(user.id, command.wallet, asset),
      amount: minor,
      cause: command.cause,
      link,
      timeMs: command.timeMs,
    }),
  );
}

export function platformTransfer(state: EngineState, command: PlatformTransfer): ApplyResult {
  const link = linkOf(command.link, `command:${command.id}`);
  if (
    isEngineOwnedId(command.id) ||
    !isPlatformAccountName(command.from) ||
    !isPlatformAccountName(command.to) ||
    !isCause(command.cause) ||
    !link
  ) {
    return { ok: false, code: 'invalid_command' };
  }
  if (command.from === command.to) return { ok: false, code: 'same_account' };
  const money = parseMoney(state, command.asset, command.amount);
  if (!money.ok) return money;
  const { asset, minor } = money.value;
  const ledger = state.ledger;
  const fingerprint = transferFingerprint(
    accountKey(platformOwner(command.from), 'platform', asset.code),
    accountKey(platformOwner(command.to), 'platform', asset.code),
    minor,
    command.cause,
    link,
  );
  const used = ledger.usedTransfer(command.id, fingerprint);
  if (used !== undefined) return answerOf(used);
  return answerOf(
    ledger.transfer({
      id: command.id,
      debit: ledger.platform(command.from, asset),
      credit: ledger.platform(command.to, asset),
      amount: minor,
      cause: command.cause,
      link,
      timeMs: command.timeMs,
    }),
  );
}

function answerOf(outcome: TransferOutcome): ApplyResult {
  return outcome.ok ? { ok: true, events: [outcome.posted] } : outcome;
}

export function walletTransfer(state: EngineState, command: WalletTransfer): ApplyResult {
  if (!isValidUserId(command.userId)) return { ok: false, code: 'invalid_user' };
  if (isEngineOwnedId(command.id) || !isUserWallet(command.fromWallet) || !isUserWallet(command.toWallet))
    return { ok: false, code: 'invalid_command' };
  if (command.fromWallet === command.toWallet) return { ok: false, code: 'same_account' };
  const money = parseMoney(state, command.asset, command.amount);
  if (!money.ok) return money;
  const { asset, minor } = money.value;
  const ledger = state.ledger;
  const link = `command:${command.id}`;
  // Everything that can refuse it is asked before the user or any account is opened.
  const fingerprint = transferFingerprint(
    accountKey(command.userId, command.fromWallet, asset.code),
    accountKey(command.userId, command.toWallet, asset.code),
    minor,
    'wallet_transfer',
    link,
  );
  const used = ledger.usedTransfer(command.id, fingerprint);
  if (used !== undefined) return answerOf(used);
  const from = ledger.find(command.userId, command.fromWallet, asset.code);
  if (from === undefined || from.isAvailableBelow(minor)) return { ok: false, code: 'insufficient_balance' };
  const user = userOf(state, command.userId);
  return answerOf(
    ledger.transfer({
      id: command.id,
      debit: from,
      credit: ledger.account(user.id, command.toWallet, asset),
      amount: minor,
      cause: 'wallet_transfer',
      link,
      timeMs: command.timeMs,
    }),
  );
}

export function holdFunds(state: EngineState, command: HoldFunds): ApplyResult {
  if (!isValidUserId(command.userId)) return { ok: false, code: 'invalid_user' };
  const link = linkOf(command.link, `command:${command.id}`);
  if (isEngineOwnedId(command.id) || !isUserWallet(command.wallet) || !isCause(command.cause) || !link) {
    return { ok: false, code: 'invalid_command' };
  }
  const money = parseMoney(state, command.asset, command.amount);
  if (!money.ok) return money;
  const { asset, minor } = money.value;
  const ledger = state.ledger;
  // Everything that can refuse it is asked before the user or any account is opened.
  if (!ledger.isHoldIdFree(command.id)) return { ok: false, code: 'transfer_id_reused' };
  const existing = ledger.find(command.userId, command.wallet, asset.code);
  if (existing === undefined || existing.isAvailableBelow(minor)) return { ok: false, code: 'insufficient_balance' };
  const user = userOf(state, command.userId);
  const account = ledger.account(user.id, command.wallet, asset);
  const outcome = ledger.createHold(command.id, 'funds', account, minor, command.cause, link);
  if (!outcome.ok) return outcome;
  return {
    ok: true,
    events: [
      {
        type: 'hold_placed',
        holdId: command.id,
        account: account.key,
        amount: money.value.minor,
        timeMs: command.timeMs,
      },
    ],
  };
}

/**
 * Posts all of a funds hold, or `amount` of it, to a platform account, as the transfer `command.id`.
 * Like a deposit, the transfer is idempotent by its id for good, not only while the command window
 * remembers the command: a retry with the same body answers the first posting without moving money
 * again (a partial post retried later would otherwise pay twice), and another body is refused.
 */
export function postHold(state: EngineState, command: PostHold): ApplyResult {
  if (isEngineOwnedId(command.id)) return { ok: false, code: 'invalid_command' };
  const fingerprint = `post:${command.holdId}>${command.to}:${command.amount ?? 'rest'}${command.fee === undefined ? '' : `:fee:${command.fee}`}`;
  const used = state.ledger.usedTransfer(command.id, fingerprint);
  if (used !== undefined) {
    // A retry answers the first posting with its fee line, moving nothing.
    const feePosted = used.ok ? state.ledger.usedIds.get(feeTransferId(command.id))?.posted : undefined;
    return used.ok && feePosted ? { ok: true, events: [used.posted, feePosted] } : answerOf(used);
  }
  const hold = state.ledger.holds.get(command.holdId);
  if (hold === undefined || hold.kind !== 'funds') return { ok: false, code: 'hold_not_found' };
  if (!isPlatformAccountName(command.to)) return { ok: false, code: 'invalid_command' };
  let amount = hold.remaining;
  if (command.amount !== undefined) {
    const money = parseMoney(state, hold.account.asset.code, command.amount);
    if (!money.ok) return money;
    amount = money.value.minor;
  }
  if (amount > hold.remaining) return { ok: false, code: 'hold_amount_exceeded' };
  let fee = 0n;
  if (command.fee !== undefined) {
    // A fee leaves something for the rail: a fee of the whole amount would be a charge, not a payout.
    const money = parseMoney(state, hold.account.asset.code, command.fee);
    if (!money.ok) return money;
    fee = money.value.minor;
    if (fee >= amount) return { ok: false, code: 'invalid_amount' };
    if (state.ledger.usedIds.has(feeTransferId(command.id))) return { ok: false, code: 'transfer_id_reused' };
  }
  const asset = hold.account.asset;
  const credit = state.ledger.platform(command.to, asset);
  const { cause, link } = hold;
  const posted = state.ledger.postFromHold(hold, credit, amount - fee, command.id, cause, link, command.timeMs);
  state.ledger.recordUsedId(command.id, fingerprint, posted);
  if (fee === 0n) return { ok: true, events: [posted] };
  // The fee line is linked to what the hold was for (the withdrawal), under the cause `fee`.
  const feePosted = state.ledger.postFromHold(
    hold,
    state.ledger.platform('fees', asset),
    fee,
    feeTransferId(command.id),
    'fee',
    link,
    command.timeMs,
  );
  state.ledger.recordUsedId(feeTransferId(command.id), `fee-of:${command.id}`, feePosted);
  return { ok: true, events: [posted, feePosted] };
}

/** The id of a posting's fee transfer. */
export function feeTransferId(postId: string): string {
  return `${postId}:fee`;
}

export function voidHold(state: EngineState, command: VoidHold): ApplyResult {
  const hold = state.ledger.holds.get(command.holdId);
  if (hold === undefined || hold.kind !== 'funds') return { ok: false, code: 'hold_not_found' };
  const amount = hold.remaining;
  state.ledger.close(hold);
  const event: EngineEvent = {
    type: 'hold_released',
    holdId: hold.id,
    account: hold.account.key,
    amount,
    timeMs: command.timeMs,
  };
  return { ok: true, events: [event] };
}

/** The family (families.ts); its keys are shared ones, coded in commands.ts. */
export const FUNDS_FAMILY = defineFamily<Deposit | WalletTransfer | HoldFunds | PostHold | VoidHold | PlatformTransfer>(
  {
    name: 'funds',
    commands: {
      deposit: { code: 'D', keys: ['userId', 'wallet', 'asset', 'amount', 'from', 'cause', 'link'], apply: deposit },
      wallet_transfer: {
        code: 'W',
        keys: ['userId', 'asset', 'fromWallet', 'toWallet', 'amount'],
        apply: walletTransfer,
      },
      hold_funds: { code: 'H', keys: ['userId', 'wallet', 'asset', 'amount', 'cause', 'link'], apply: holdFunds },
      post_hold: { code: 'O', keys: ['holdId', 'to', 'amount', 'fee'], apply: postHold },
      void_hold: { code: 'V', keys: ['holdId'], apply: voidHold },
      platform_transfer: {
        code: 'K',
        keys: ['from', 'to', 'asset', 'amount', 'cause', 'link'],
        apply: platformTransfer,
      },
    },
    keys: { fee: ['e', STR] },
    rejections: [],
  },
);
