// Owns customers' European option positions (decision 0034): buying one pays its premium to the options
// market maker's platform account and opens the position; closing early pays the market maker's bid;
// at expiry a batch command pays each position's intrinsic value and closes it.
// Must hold: a position is opened once and closed once (by close or by settlement, never both); closing
// happens before the expiry's close and settlement after it (the command's stamped time decides); a
// settlement batch is all or nothing; the market maker account is the only counterparty (a platform
// account: it may go negative, so a payout never fails for its balance, see decision 0034).
// Must not: price anything (the host sends the premium, the bid and the payouts, already rounded to the
// currency's minor unit by options-pricing.ts's rule), or read the clock.

import { tryParseDecimal } from '@bourse/money';
import { assetOfCode } from './assets.ts';
import { type CommandBase, defineFamily, NUM, STR } from './command-family.ts';
import { type ApplyResult, type EngineState, findUser, isValidUserId, userOf } from './engine-state.ts';
import type { EngineEvent } from './events.ts';
import { isEngineOwnedId, type PlatformAccountName, WALLETS, type Wallet } from './ledger.ts';

/** The options market maker's platform account: it sells every option and pays every close and expiry. */
export const OPTIONS_MAKER: PlatformAccountName = 'options_maker';

/** Buys `contracts` of option `series` for `amount` (the premium, in `asset`, from the buyer's `wallet`). */
export type BuyOption = CommandBase & {
  type: 'buy_option';
  /** The position's id (the host's order row: "option:<n>"); the premium transfer is `<positionId>:premium`. */
  positionId: string;
  userId: string;
  wallet: Wallet;
  asset: string;
  amount: string;
  /** The series code (options-chain.ts): underlying, expiry, right, strike. */
  series: string;
  contracts: number;
  /** The expiry's session close: no buy or close from then on, settlement only. */
  expiresMs: number;
  link?: string;
};

/** Closes a position before expiry at `amount` (the bid value, "0" for nothing), paid by the market maker. */
export type CloseOption = CommandBase & {
  type: 'close_option';
  positionId: string;
  userId: string;
  amount: string;
};

/** One position's settlement: [position id, payout ("0" out of the money)]. */
export type OptionSettlementEntry = readonly [positionId: string, payout: string];

/** Settles expired positions at intrinsic value (computed by the host from the underlying's close). */
export type SettleOptions = CommandBase & {
  type: 'settle_options';
  entries: readonly OptionSettlementEntry[];
  link?: string;
};

export type OptionsCommand = BuyOption | CloseOption | SettleOptions;

/** An open position, as the engine keeps it. */
export type OptionPosition = {
  readonly positionId: string;
  readonly userId: string;
  readonly wallet: Wallet;
  readonly asset: string;
  readonly series: string;
  readonly contracts: number;
  readonly premium: bigint;
  readonly expiresMs: number;
  readonly openedMs: number;
};

/** Largest settlement batch (bounds a journal line; the host sends more in several). */
export const OPTION_SETTLEMENT_BATCH_MAX = 2_000;
const MAX_CONTRACTS = 1_000_000;

// The family's state, per engine state, without a field in EngineState (snapshot.ts and engine.ts stay
// as they are): made on first use, restored from the snapshot's `options` section.
const BOOKS = new WeakMap<EngineState, Map<string, OptionPosition>>();
function book(state: EngineState): Map<string, OptionPosition> {
  let positions = BOOKS.get(state);
  if (positions === undefined) {
    positions = new Map();
    BOOKS.set(state, positions);
  }
  return positions;
}

const premiumId = (positionId: string) => `${positionId}:premium`;
const closeId = (positionId: string) => `${positionId}:close`;
const settleId = (positionId: string) => `${positionId}:settle`;

function isPositionId(id: unknown): id is string {
  return typeof id === 'string' && id.length > 0 && id.length <= 64 && !isEngineOwnedId(id);
}

function buyOption(state: EngineState, command: BuyOption): ApplyResult {
  const { positionId, userId, wallet, contracts, expiresMs, series } = command;
  if (
    !isPositionId(positionId) ||
    !isValidUserId(userId) ||
    typeof wallet !== 'string' ||
    wallet === 'platform' ||
    !(WALLETS as readonly string[]).includes(wallet) ||
    typeof series !== 'string' ||
    series.length === 0 ||
    series.length > 80 ||
    !Number.isSafeInteger(contracts) ||
    contracts < 1 ||
    contracts > MAX_CONTRACTS ||
    !Number.isSafeInteger(expiresMs) ||
    (command.link !== undefined && (typeof command.link !== 'string' || command.link.length > 200))
  )
    return { ok: false, code: 'invalid_command' };
  const asset = typeof command.asset === 'string' ? assetOfCode(state.assets, command.asset) : undefined;
  if (!asset) return { ok: false, code: 'unknown_asset' };
  const amount = typeof command.amount === 'string' ? tryParseDecimal(command.amount, asset.scale) : undefined;
  if (!amount?.ok || amount.minor <= 0n) return { ok: false, code: 'invalid_amount' };
  if (command.timeMs >= expiresMs) return { ok: false, code: 'option_expired' };
  const ledger = state.ledger;
  if (book(state).has(positionId) || ledger.usedIds.has(premiumId(positionId)))
    return { ok: false, code: 'option_exists' };
  const user = findUser(state, userId);
  const from = user === undefined ? undefined : ledger.find(user.id, wallet, asset.code);
  if (from === undefined || from.isAvailableBelow(amount.minor)) return { ok: false, code: 'insufficient_balance' };

  const link = command.link ?? positionId;
  const paid = ledger.move(
    from,
    ledger.platform(OPTIONS_MAKER, asset),
    amount.minor,
    premiumId(positionId),
    'option',
    link,
    command.timeMs,
  );
  ledger.recordUsedId(premiumId(positionId), `option-premium:${positionId}`, paid);
  book(state).set(positionId, {
    positionId,
    userId: userOf(state, userId).id,
    wallet,
    asset: asset.code,
    series,
    contracts,
    premium: amount.minor,
    expiresMs,
    openedMs: command.timeMs,
  });
  return { ok: true, events: [paid] };
}

/** Pays `minor` of the position's asset from the market maker to its holder (nothing for 0). */
function payOut(state: EngineState, p: OptionPosition, minor: bigint, id: string, link: string, timeMs: number) {
  const ledger = state.ledger;
  const asset = assetOfCode(state.assets, p.asset);
  if (asset === undefined) throw new Error(`option ${p.positionId}: asset ${p.asset} vanished`);
  if (minor === 0n) return undefined;
  const posted = ledger.move(
    ledger.platform(OPTIONS_MAKER, asset),
    ledger.account(p.userId, p.wallet, asset),
    minor,
    id,
    'option',
    link,
    timeMs,
  );
  ledger.recordUsedId(id, `option-payout:${id}`, posted);
  return posted;
}

function closeOption(state: EngineState, command: CloseOption): ApplyResult {
  if (!isPositionId(command.positionId) || !isValidUserId(command.userId))
    return { ok: false, code: 'invalid_command' };
  const position = book(state).get(command.positionId);
  // Someone else's position is as unknown as one that never was.
  if (position === undefined || position.userId !== command.userId) return { ok: false, code: 'option_not_found' };
  if (command.timeMs >= position.expiresMs) return { ok: false, code: 'option_expired' };
  const scale = assetOfCode(state.assets, position.asset)?.scale ?? 0;
  const amount = typeof command.amount === 'string' ? tryParseDecimal(command.amount, scale) : undefined;
  if (!amount?.ok || amount.minor < 0n) return { ok: false, code: 'invalid_amount' };
  if (state.ledger.usedIds.has(closeId(position.positionId))) return { ok: false, code: 'transfer_id_reused' };
  const posted = payOut(
    state,
    position,
    amount.minor,
    closeId(position.positionId),
    position.positionId,
    command.timeMs,
  );
  book(state).delete(position.positionId);
  return { ok: true, events: posted ? [posted] : [] };
}

function settleOptions(state: EngineState, command: SettleOptions): ApplyResult {
  const { entries } = command;
  if (
    isEngineOwnedId(command.id) ||
    !Array.isArray(entries) ||
    entries.length === 0 ||
    entries.length > OPTION_SETTLEMENT_BATCH_MAX ||
    (command.link !== undefined && (typeof command.link !== 'string' || command.link.length > 200))
  )
    return { ok: false, code: 'invalid_command' };
  // Every entry is checked before anything moves: all or nothing.
  const checked: [OptionPosition, bigint][] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!Array.isArray(entry) || entry.length !== 2) return { ok: false, code: 'invalid_command' };
    const [positionId, payoutText] = entry;
    if (typeof positionId !== 'string' || seen.has(positionId)) return { ok: false, code: 'invalid_command' };
    seen.add(positionId);
    const position = book(state).get(positionId);
    if (position === undefined) return { ok: false, code: 'option_not_found' };
    if (command.timeMs < position.expiresMs) return { ok: false, code: 'option_not_expired' };
    const scale = assetOfCode(state.assets, position.asset)?.scale ?? 0;
    const payout = typeof payoutText === 'string' ? tryParseDecimal(payoutText, scale) : undefined;
    if (!payout?.ok || payout.minor < 0n) return { ok: false, code: 'invalid_amount' };
    if (state.ledger.usedIds.has(settleId(positionId))) return { ok: false, code: 'transfer_id_reused' };
    checked.push([position, payout.minor]);
  }
  const events: EngineEvent[] = [];
  for (const [position, payout] of checked) {
    const link = command.link ?? position.positionId;
    const posted = payOut(state, position, payout, settleId(position.positionId), link, command.timeMs);
    if (posted) events.push(posted);
    book(state).delete(position.positionId);
  }
  return { ok: true, events };
}

// --- reading ---------------------------------------------------------------------------------------------

/** Open positions, in the order they were opened. */
export function optionPositions(state: EngineState): OptionPosition[] {
  return [...book(state).values()];
}

export function optionPosition(state: EngineState, positionId: string): OptionPosition | undefined {
  return book(state).get(positionId);
}

// --- the snapshot section ----------------------------------------------------------------------------------

/** [position id, user id, wallet, asset, series, contracts, premium, expires, opened], in opening order. */
export type OptionsSnapshot = [string, string, Wallet, string, string, number, string, number, number][];

function saveOptions(state: EngineState): OptionsSnapshot | undefined {
  const open = [...book(state).values()].map((p): OptionsSnapshot[number] => [
    p.positionId,
    p.userId,
    p.wallet,
    p.asset,
    p.series,
    p.contracts,
    p.premium.toString(),
    p.expiresMs,
    p.openedMs,
  ]);
  // Absent with no open position, so states from before options keep their hashes.
  return open.length === 0 ? undefined : open;
}

function restoreOptions(state: EngineState, saved: OptionsSnapshot | undefined): void {
  const positions = book(state);
  positions.clear();
  if (saved === undefined) return;
  for (const [positionId, userId, wallet, asset, series, contracts, premium, expiresMs, openedMs] of saved) {
    if (findUser(state, userId) === undefined) throw new Error(`snapshot option ${positionId} is orphaned`);
    positions.set(positionId, {
      positionId,
      userId,
      wallet,
      asset,
      series,
      contracts,
      premium: BigInt(premium),
      expiresMs,
      openedMs,
    });
  }
}

/** The family (families.ts): buy_option `~J`, close_option `~U`, settle_options `~E`. */
export const OPTIONS_FAMILY = defineFamily<
  OptionsCommand,
  'option_exists' | 'option_not_found' | 'option_expired' | 'option_not_expired'
>({
  name: 'options',
  commands: {
    buy_option: {
      code: 'J',
      keys: ['positionId', 'userId', 'wallet', 'asset', 'amount', 'series', 'contracts', 'expiresMs', 'link'],
      apply: buyOption,
    },
    close_option: { code: 'U', keys: ['positionId', 'userId', 'amount'], apply: closeOption },
    settle_options: { code: 'E', keys: ['entries', 'link'], apply: settleOptions },
  },
  keys: { positionId: ['C', STR], series: ['V', STR], contracts: ['Q', NUM], expiresMs: ['Z', NUM] },
  rejections: ['option_exists', 'option_not_found', 'option_expired', 'option_not_expired'],
  section: {
    key: 'options',
    save: (state) => saveOptions(state),
    restore: (state, saved) => restoreOptions(state, saved as OptionsSnapshot | undefined),
  },
});
