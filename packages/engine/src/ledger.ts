// Owns balances and holds: double-entry accounts per (owner, wallet, asset) and the transfers between them.
// Must hold: per asset all balances sum to zero; a user account never goes below zero and its held
// amount stays within its balance; held equals the sum of the account's live holds.
// Must not: know about orders or prices; accept an amount <= 0; let a transfer id mean two things.

import type { Asset } from '@bourse/money';

export const WALLETS = ['spot', 'stock', 'contract', 'margin', 'fund', 'robot', 'loan', 'platform'] as const;
export type Wallet = (typeof WALLETS)[number];

export const TRANSFER_CAUSES = [
  'trade',
  'fee',
  'deposit',
  'withdrawal',
  'paper_grant',
  'wallet_transfer',
  'funding',
  'interest',
  'allotment',
  'refund',
  'liquidation',
  'adjustment',
] as const;
export type TransferCause = (typeof TRANSFER_CAUSES)[number];

export const PLATFORM_PREFIX = 'platform:';
/** Platform accounts: may go negative (a payment rail is minus what users deposited through it). */
export type PlatformAccountName =
  | 'fees'
  | 'insurance_fund'
  | 'liquidity'
  | 'faucet'
  | `rail:${string}`
  | `issuer:${string}`;

export function platformOwner(name: PlatformAccountName): string {
  return PLATFORM_PREFIX + name;
}

export function isPlatformAccountName(name: string): name is PlatformAccountName {
  return (
    name === 'fees' ||
    name === 'insurance_fund' ||
    name === 'liquidity' ||
    name === 'faucet' ||
    /^(rail|issuer):[a-z0-9_.-]{1,40}$/i.test(name)
  );
}

export type Account = {
  readonly index: number;
  /** `owner/wallet/asset`, the account's name in events and snapshots. */
  readonly key: string;
  readonly owner: string;
  readonly wallet: Wallet;
  readonly asset: Asset;
  readonly isPlatform: boolean;
  balance: bigint;
  held: bigint;
};

/** `order`: what an open order can owe; `funds`: a pending transfer; `settlement`: bought, not yet settled. */
export type HoldKind = 'order' | 'funds' | 'settlement';

/** A pending debit: `remaining` of the account's balance is reserved until posted or voided. */
export type Hold = {
  readonly id: string;
  readonly kind: HoldKind;
  readonly account: Account;
  remaining: bigint;
  readonly cause: TransferCause;
  readonly link: string;
};

export type TransferPosted = {
  readonly type: 'transfer_posted';
  readonly transferId: string;
  readonly debit: string;
  readonly credit: string;
  readonly asset: string;
  readonly amount: bigint;
  readonly cause: TransferCause;
  readonly link: string;
  readonly timeMs: number;
};

export type TransferInput = {
  id: string;
  debit: Account;
  credit: Account;
  amount: bigint;
  cause: TransferCause;
  link: string;
  timeMs: number;
};

export type LedgerFailure = 'insufficient_balance' | 'transfer_id_reused' | 'invalid_amount' | 'same_account';

export type TransferOutcome =
  | { ok: true; posted: TransferPosted; duplicate: boolean }
  | { ok: false; code: LedgerFailure };

export type HoldOutcome = { ok: true; hold: Hold } | { ok: false; code: LedgerFailure };

export function accountKey(owner: string, wallet: Wallet, assetCode: string): string {
  return `${owner}/${wallet}/${assetCode}`;
}

export class Ledger {
  readonly accounts: Account[] = [];
  private readonly byKey = new Map<string, Account>();
  /** Live funds and settlement holds by id. Order holds live on their order (no id lookup needed). */
  readonly holds = new Map<string, Hold>();
  /** Ids of idempotent transfers and pending holds → the body they were first used with. */
  readonly usedIds = new Map<string, { fingerprint: string; posted: TransferPosted | null }>();
  /** Whether some used id looks like an order hold id (`order#<n>`), which would block that order. */
  private orderLikeIdUsed = false;

  /** Records a used transfer/hold id (also from a snapshot). */
  recordUsedId(id: string, fingerprint: string, posted: TransferPosted | null): void {
    this.usedIds.set(id, { fingerprint, posted });
    if (id.startsWith('order#')) this.orderLikeIdUsed = true;
  }

  /**
   * Whether order `orderId`'s hold id `order#<orderId>` was already used by a transfer or funds hold.
   * (Order and funds holds share one id space; such an order is refused as before.)
   */
  isOrderHoldIdUsed(orderId: number): boolean {
    return this.orderLikeIdUsed && this.usedIds.has(`order#${orderId}`);
  }

  /** The account, opened with a zero balance on first use. */
  account(owner: string, wallet: Wallet, asset: Asset): Account {
    const key = accountKey(owner, wallet, asset.code);
    let account = this.byKey.get(key);
    if (account === undefined) {
      account = {
        index: this.accounts.length,
        key,
        owner,
        wallet,
        asset,
        isPlatform: owner.startsWith(PLATFORM_PREFIX),
        balance: 0n,
        held: 0n,
      };
      this.accounts.push(account);
      this.byKey.set(key, account);
    }
    return account;
  }

  find(owner: string, wallet: Wallet, assetCode: string): Account | undefined {
    return this.byKey.get(accountKey(owner, wallet, assetCode));
  }

  platform(name: PlatformAccountName, asset: Asset): Account {
    return this.account(platformOwner(name), 'platform', asset);
  }

  /**
   * Idempotent transfer: the same id with the same body answers the first result without moving money
   * again; the same id with another body is `transfer_id_reused`. Failed transfers are not remembered.
   */
  transfer(input: TransferInput): TransferOutcome {
    const fingerprint = `${input.debit.key}>${input.credit.key}:${input.amount}:${input.cause}:${input.link}`;
    const used = this.usedIds.get(input.id);
    if (used !== undefined) {
      if (used.fingerprint !== fingerprint || used.posted === null) return { ok: false, code: 'transfer_id_reused' };
      return { ok: true, posted: used.posted, duplicate: true };
    }
    if (input.amount <= 0n) return { ok: false, code: 'invalid_amount' };
    if (input.debit === input.credit) return { ok: false, code: 'same_account' };
    if (!input.debit.isPlatform && available(input.debit) < input.amount) {
      return { ok: false, code: 'insufficient_balance' };
    }
    const posted = this.move(input.debit, input.credit, input.amount, input.id, input.cause, input.link, input.timeMs);
    this.recordUsedId(input.id, fingerprint, posted);
    return { ok: true, posted, duplicate: false };
  }

  /** Reserves `amount` of the account's available balance. Order holds are not remembered once done. */
  createHold(
    id: string,
    kind: HoldKind,
    account: Account,
    amount: bigint,
    cause: TransferCause,
    link: string,
  ): HoldOutcome {
    if (amount < 0n || (kind === 'funds' && amount === 0n)) return { ok: false, code: 'invalid_amount' };
    if (this.holds.has(id) || this.usedIds.has(id)) return { ok: false, code: 'transfer_id_reused' };
    if (!account.isPlatform && available(account) < amount) return { ok: false, code: 'insufficient_balance' };
    const hold: Hold = { id, kind, account, remaining: amount, cause, link };
    account.held += amount;
    this.holds.set(id, hold);
    if (kind === 'funds') this.recordUsedId(id, `hold:${account.key}:${amount}`, null);
    return { ok: true, hold };
  }

  /**
   * An open order's hold: reserves `amount` (the caller checked it is available) without an id in
   * `holds`; the order owns it and closes it when it finishes.
   */
  holdForOrder(account: Account, amount: bigint): Hold {
    if (amount < 0n) throw new Error(`order hold of ${amount}`);
    account.held += amount;
    return { id: '', kind: 'order', account, remaining: amount, cause: 'trade', link: '' };
  }

  /** Moves `amount` out of a hold to `credit`. The caller guarantees amount <= hold.remaining. */
  postFromHold(
    hold: Hold,
    credit: Account,
    amount: bigint,
    transferId: string,
    cause: TransferCause,
    link: string,
    timeMs: number,
  ): TransferPosted {
    if (amount <= 0n || amount > hold.remaining)
      throw new Error(`hold ${hold.id}: cannot post ${amount} of ${hold.remaining}`);
    hold.remaining -= amount;
    hold.account.held -= amount;
    const posted = this.move(hold.account, credit, amount, transferId, cause, link, timeMs);
    if (hold.remaining === 0n && hold.kind === 'funds') this.holds.delete(hold.id);
    return posted;
  }

  /** Releases `amount` (default: all that remains) of a hold back to the available balance. */
  release(hold: Hold, amount: bigint = hold.remaining): void {
    if (amount < 0n || amount > hold.remaining) throw new Error(`hold ${hold.id}: cannot release ${amount}`);
    hold.remaining -= amount;
    hold.account.held -= amount;
  }

  /** Ends a hold: releases what remains and forgets it. */
  close(hold: Hold): void {
    if (hold.remaining !== 0n) this.release(hold);
    if (hold.kind !== 'order') this.holds.delete(hold.id);
  }

  /** Sets a hold to `amount`, reserving more only if the account has it available. */
  resize(hold: Hold, amount: bigint): boolean {
    const delta = amount - hold.remaining;
    if (delta > 0n && !hold.account.isPlatform && available(hold.account) < delta) return false;
    hold.remaining = amount;
    hold.account.held += delta;
    return true;
  }

  /**
   * Moves money between two accounts with no id bookkeeping: for settlement steps whose ids derive from a
   * unique trade. A user debit must be covered (a broken cover is a bug: it throws).
   */
  move(
    debit: Account,
    credit: Account,
    amount: bigint,
    transferId: string,
    cause: TransferCause,
    link: string,
    timeMs: number,
  ): TransferPosted {
    if (amount <= 0n) throw new Error(`transfer ${transferId}: amount must be positive`);
    if (debit.asset.code !== credit.asset.code) throw new Error(`transfer ${transferId}: asset mismatch`);
    debit.balance -= amount;
    if (!debit.isPlatform && debit.balance < debit.held) {
      throw new Error(`transfer ${transferId}: ${debit.key} would go below its holds`);
    }
    credit.balance += amount;
    return {
      type: 'transfer_posted',
      transferId,
      debit: debit.key,
      credit: credit.key,
      asset: debit.asset.code,
      amount,
      cause,
      link,
      timeMs,
    };
  }

  /** Restores an account exactly as snapshotted (start-up only). */
  restoreAccount(owner: string, wallet: Wallet, asset: Asset, balance: bigint, held: bigint): Account {
    const account = this.account(owner, wallet, asset);
    account.balance = balance;
    account.held = held;
    return account;
  }

  /** Restores a hold without touching the account's held total (already restored). */
  restoreHold(hold: Hold): void {
    if (hold.kind !== 'order') this.holds.set(hold.id, hold);
  }

  /** The first broken ledger invariant, or undefined when all hold. `orderHolds`: the live orders' holds. */
  findBrokenInvariant(orderHolds: Iterable<Hold> = []): string | undefined {
    const sums = new Map<string, bigint>();
    const heldByAccount = new Map<Account, bigint>();
    for (const holds of [this.holds.values(), orderHolds]) {
      for (const hold of holds) {
        if (hold.remaining < 0n) return `hold ${hold.id || hold.kind} is negative`;
        heldByAccount.set(hold.account, (heldByAccount.get(hold.account) ?? 0n) + hold.remaining);
      }
    }
    for (const account of this.accounts) {
      sums.set(account.asset.code, (sums.get(account.asset.code) ?? 0n) + account.balance);
      if (account.held !== (heldByAccount.get(account) ?? 0n)) {
        return `${account.key} held ${account.held} but its holds sum to ${heldByAccount.get(account) ?? 0n}`;
      }
      if (account.isPlatform) continue;
      if (account.balance < 0n) return `${account.key} is negative: ${account.balance}`;
      if (account.held < 0n || account.held > account.balance) {
        return `${account.key} holds ${account.held} of ${account.balance}`;
      }
    }
    for (const [asset, sum] of sums) if (sum !== 0n) return `${asset} balances sum to ${sum}, not zero`;
    return undefined;
  }
}

export function available(account: Account): bigint {
  return account.balance - account.held;
}
