// Owns balances and holds: double-entry accounts per (owner, wallet, asset) and the transfers between them.
// Must hold: per asset all balances sum to zero; a user account never goes below zero and its held
// amount stays within its balance; held equals the sum of the account's live holds.
// Must not: know about orders or prices; accept an amount <= 0; let a transfer id mean two things.
// Balances and held amounts live in typed arrays by account index (AccountNumbers): the trading hot
// path (the *N methods) passes account indexes and safe-integer amounts and touches no Account object.

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
  'convert',
  /** An option's premium, early close or expiry payout (options.ts). */
  'option',
  // Loans (decision 0039): the disbursement and the repayment. Appended: the journal codes a cause by its
  // position in this list, so a new cause goes at the end, never in between.
  'loan',
  'loan_repayment',
] as const;
export type TransferCause = (typeof TRANSFER_CAUSES)[number];

export const PLATFORM_PREFIX = 'platform:';
/** Platform accounts: may go negative (a payment rail is minus what users deposited through it). */
export type PlatformAccountName =
  | 'fees'
  | 'insurance_fund'
  | 'liquidity'
  | 'faucet'
  | 'adjustments'
  /** Perpetuals' clearing pool: realised PnL is paid through it (its balance is −Σ open positions' signed entry). */
  | 'clearing'
  /** Perpetuals' funding pool: each interval's payments in equal its receipts out (nets to zero). */
  | 'funding'
  /** The options market maker: sells every option, pays every close and expiry (options.ts, decision 0034). */
  | 'options_maker'
  | `exchange:${string}`
  | `rail:${string}`
  | `issuer:${string}`
  /** One loan's receivable (decision 0039): minus what its customer owes, principal and accrued interest. */
  | `loan:${string}`;

export function platformOwner(name: PlatformAccountName): string {
  return PLATFORM_PREFIX + name;
}

export function isPlatformAccountName(name: string): name is PlatformAccountName {
  return (
    name === 'fees' ||
    name === 'insurance_fund' ||
    name === 'liquidity' ||
    name === 'faucet' ||
    name === 'adjustments' ||
    /^(rail|issuer|exchange|loan):[a-z0-9_.-]{1,40}$/i.test(name)
  );
}

/**
 * Whether `id` is in the part of the transfer and hold id space the engine names itself: an order's hold
 * (`order#<n>`), a fill's transfers (`trade:<id>:quote`, `:base`, `:buyer_fee`, `:seller_fee`) and a T+1
 * settlement lock (`settle:<instrument>:<trade>`). A command whose id becomes a transfer or hold id
 * (deposit, wallet_transfer, hold_funds, post_hold) may not take one: it would block that order, stop
 * that fill half way, or give two transfers one id.
 */
export function isEngineOwnedId(id: string): boolean {
  return (
    id.startsWith('order#') ||
    id.startsWith('trade:') ||
    id.startsWith('settle:') ||
    id.startsWith('margin:') ||
    id.startsWith('perp:')
  );
}

/**
 * One account. Balance and held are exact integers of minor units. They live in the ledger's typed
 * arrays by account index (float64 integers while both stay within ±(2^53 - 1): no allocation per
 * update, and a fill touches dense arrays instead of objects spread over the heap), and in this object
 * as bigints from the first update that would leave that range (the arrays then hold NaN) until an
 * update brings both back within it. Readers see bigints either way; only the ledger changes them.
 */
export class Account {
  readonly index: number;
  /** `owner/wallet/asset`, the account's name in events and snapshots. */
  readonly key: string;
  readonly owner: string;
  readonly wallet: Wallet;
  readonly asset: Asset;
  readonly isPlatform: boolean;
  private readonly numbers: AccountNumbers;
  private balanceB = 0n;
  private heldB = 0n;

  constructor(index: number, key: string, owner: string, wallet: Wallet, asset: Asset, numbers: AccountNumbers) {
    this.index = index;
    this.key = key;
    this.owner = owner;
    this.wallet = wallet;
    this.asset = asset;
    this.isPlatform = owner.startsWith(PLATFORM_PREFIX);
    this.numbers = numbers;
  }

  private get isBig(): boolean {
    return Number.isNaN(this.numbers.balance[this.index] as number);
  }

  get balance(): bigint {
    return toBigInt(this.numbers.balance[this.index] as number, this.balanceB);
  }

  set balance(value: bigint) {
    this.setExact(value, this.held);
  }

  get held(): bigint {
    return toBigInt(this.numbers.held[this.index] as number, this.heldB);
  }

  set held(value: bigint) {
    this.setExact(this.balance, value);
  }

  /** balance - held < amount, without allocating in the common case. */
  isAvailableBelow(amount: bigint): boolean {
    const n = Number(amount);
    const free = (this.numbers.balance[this.index] as number) - (this.numbers.held[this.index] as number);
    // NaN (bigint mode) is not a safe integer.
    if (Number.isSafeInteger(n) && Number.isSafeInteger(free)) return free < n;
    return this.balance - this.held < amount;
  }

  /** balance < held (a debit broke its cover). */
  isBelowHeld(): boolean {
    return this.isBig
      ? this.balanceB < this.heldB
      : (this.numbers.balance[this.index] as number) < (this.numbers.held[this.index] as number);
  }

  addBalance(amount: bigint): void {
    if (!this.isBig) {
      const next = (this.numbers.balance[this.index] as number) + Number(amount);
      if (Number.isSafeInteger(next) && amount <= MAX_SAFE && amount >= MIN_SAFE) {
        this.numbers.balance[this.index] = next;
        return;
      }
      this.toBig();
    }
    this.balanceB += amount;
    this.toNumbersIfSafe();
  }

  subtractBalance(amount: bigint): void {
    if (!this.isBig) {
      const next = (this.numbers.balance[this.index] as number) - Number(amount);
      if (Number.isSafeInteger(next) && amount <= MAX_SAFE && amount >= MIN_SAFE) {
        this.numbers.balance[this.index] = next;
        return;
      }
      this.toBig();
    }
    this.balanceB -= amount;
    this.toNumbersIfSafe();
  }

  addHeld(amount: bigint): void {
    if (!this.isBig) {
      const next = (this.numbers.held[this.index] as number) + Number(amount);
      if (Number.isSafeInteger(next) && amount <= MAX_SAFE && amount >= MIN_SAFE) {
        this.numbers.held[this.index] = next;
        return;
      }
      this.toBig();
    }
    this.heldB += amount;
    this.toNumbersIfSafe();
  }

  subtractHeld(amount: bigint): void {
    if (!this.isBig) {
      const next = (this.numbers.held[this.index] as number) - Number(amount);
      if (Number.isSafeInteger(next) && amount <= MAX_SAFE && amount >= MIN_SAFE) {
        this.numbers.held[this.index] = next;
        return;
      }
      this.toBig();
    }
    this.heldB -= amount;
    this.toNumbersIfSafe();
  }

  private setExact(balance: bigint, held: bigint): void {
    if (!this.isBig && balance <= MAX_SAFE && balance >= MIN_SAFE && held <= MAX_SAFE && held >= MIN_SAFE) {
      this.numbers.balance[this.index] = Number(balance);
      this.numbers.held[this.index] = Number(held);
      return;
    }
    this.toBig();
    this.balanceB = balance;
    this.heldB = held;
    this.toNumbersIfSafe();
  }

  /** Whether balance and held live in the typed arrays (the fast path), not as bigints. */
  get isOnFastPath(): boolean {
    return !this.isBig;
  }

  /**
   * Back to the typed arrays once balance and held are both safe integers again (a whale's ETH
   * withdrawn), so an account that once passed 2^53 does not stay on the bigint path for good.
   */
  private toNumbersIfSafe(): void {
    const { balanceB, heldB } = this;
    if (balanceB > MAX_SAFE || balanceB < MIN_SAFE || heldB > MAX_SAFE || heldB < MIN_SAFE) return;
    this.numbers.balance[this.index] = Number(balanceB);
    this.numbers.held[this.index] = Number(heldB);
    this.balanceB = 0n;
    this.heldB = 0n;
  }

  private toBig(): void {
    if (this.isBig) return;
    this.balanceB = BigInt(this.numbers.balance[this.index] as number);
    this.heldB = BigInt(this.numbers.held[this.index] as number);
    this.numbers.balance[this.index] = Number.NaN;
    this.numbers.held[this.index] = Number.NaN;
  }
}

/** The exact value of a typed-array number, or `big` when it is NaN (bigint mode). */
function toBigInt(n: number, big: bigint): bigint {
  // BigInt of a small integer is quicker than of a float64.
  const small = n | 0;
  if (small === n) return BigInt(small);
  return Number.isNaN(n) ? big : BigInt(n);
}

/**
 * Every account's balance and held amount by account index, as float64 integers (NaN once the account
 * keeps bigints), plus what the hot path needs without touching the Account objects: whether it is a
 * platform account, its key and its asset code.
 */
class AccountNumbers {
  balance = new Float64Array(1024);
  held = new Float64Array(1024);
  /** 1 for a platform account (may go negative). */
  platform = new Uint8Array(1024);
  readonly keys: string[] = [];
  /** A small number per asset code (equal codes, equal numbers), so moves compare assets cheaply. */
  assetIds: Int32Array<ArrayBuffer> = new Int32Array(1024);
  /** The asset code of each asset number. */
  readonly assetCodeById: string[] = [];
  private readonly assetIdByCode = new Map<string, number>();

  assetIdOf(code: string): number {
    let id = this.assetIdByCode.get(code);
    if (id === undefined) {
      id = this.assetCodeById.length;
      this.assetCodeById.push(code);
      this.assetIdByCode.set(code, id);
    }
    return id;
  }

  /** Makes room for account `index` (doubling). */
  ensure(index: number): void {
    if (index < this.balance.length) return;
    let size = this.balance.length * 2;
    while (size <= index) size *= 2;
    const balance = new Float64Array(size);
    balance.set(this.balance);
    const held = new Float64Array(size);
    held.set(this.held);
    const platform = new Uint8Array(size);
    platform.set(this.platform);
    const assetIds = new Int32Array(size);
    assetIds.set(this.assetIds);
    this.balance = balance;
    this.held = held;
    this.platform = platform;
    this.assetIds = assetIds;
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

/** `order`: what an open order can owe; `funds`: a pending transfer; `settlement`: bought, not yet settled. */
/** `margin`: a perpetual position's isolated margin (positions.ts), id `margin:<instrument>:<user>`. */
export type HoldKind = 'order' | 'funds' | 'settlement' | 'margin';

/**
 * A pending debit: `remaining` of the account's balance is reserved until posted or voided. Like an
 * account, it keeps `remaining` as a float64 integer while safe and as a bigint while not.
 */
export class Hold {
  readonly id: string;
  readonly kind: HoldKind;
  /** Changes only when a finished order's hold is reused for a new order (see holdForOrderN). */
  account: Account;
  /** account.index, kept here so the hot path does not have to reach the Account object. */
  accountIndex: number;
  readonly cause: TransferCause;
  readonly link: string;
  private remainingN = 0;
  private remainingB: bigint | null = null;

  /** `remaining` may be a safe integer number (the hot path) or a bigint. */
  constructor(
    id: string,
    kind: HoldKind,
    account: Account,
    remaining: bigint | number,
    cause: TransferCause,
    link: string,
    accountIndex: number = account.index,
  ) {
    this.id = id;
    this.kind = kind;
    this.account = account;
    this.accountIndex = accountIndex;
    this.cause = cause;
    this.link = link;
    if (typeof remaining === 'number') this.remainingN = remaining;
    else this.remaining = remaining;
  }

  get remaining(): bigint {
    return this.remainingB ?? BigInt(this.remainingN);
  }

  set remaining(value: bigint) {
    if (value <= MAX_SAFE && value >= MIN_SAFE) {
      this.remainingN = Number(value);
      this.remainingB = null;
    } else this.remainingB = value;
  }

  /** Back to a number once a bigint remaining is a safe integer again (see Account.toNumbersIfSafe). */
  private toNumberIfSafe(): void {
    const big = this.remainingB as bigint;
    if (big > MAX_SAFE || big < MIN_SAFE) return;
    this.remainingN = Number(big);
    this.remainingB = null;
  }

  /** Makes a closed order hold the new hold of another order (no allocation). */
  reuseForOrder(account: Account, accountIndex: number, remaining: number): void {
    if (this.kind !== 'order' || !this.isEmpty()) throw new Error('only a closed order hold can be reused');
    this.account = account;
    this.accountIndex = accountIndex;
    this.remainingB = null;
    this.remainingN = remaining;
  }

  /** remaining as a number, or -1 once it is kept as a bigint. */
  remainingNumber(): number {
    return this.remainingB === null ? this.remainingN : -1;
  }

  isEmpty(): boolean {
    return this.remainingB === null ? this.remainingN === 0 : this.remainingB === 0n;
  }

  /** remaining < amount */
  isBelow(amount: bigint): boolean {
    if (this.remainingB === null) {
      const n = Number(amount);
      if (Number.isSafeInteger(n)) return this.remainingN < n;
    }
    return this.remaining < amount;
  }

  /** remaining < amount, for a safe-integer amount. */
  isBelowN(amount: number): boolean {
    return this.remainingB === null ? this.remainingN < amount : this.remainingB < BigInt(amount);
  }

  subtract(amount: bigint): void {
    if (this.remainingB === null) {
      const next = this.remainingN - Number(amount);
      if (Number.isSafeInteger(next) && amount <= MAX_SAFE && amount >= MIN_SAFE) {
        this.remainingN = next;
        return;
      }
      this.remainingB = BigInt(this.remainingN);
    }
    this.remainingB -= amount;
    this.toNumberIfSafe();
  }

  /** subtract() for a safe-integer amount. */
  subtractN(amount: number): void {
    if (this.remainingB === null) {
      // Both are safe integers: the difference is exact whenever it is itself safe.
      const next = this.remainingN - amount;
      if (Number.isSafeInteger(next)) {
        this.remainingN = next;
        return;
      }
      this.remainingB = BigInt(this.remainingN);
    }
    this.remainingB -= BigInt(amount);
    this.toNumberIfSafe();
  }
}

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

/** The body a transfer id is first used with: a retry must match it (Ledger.transfer). */
export function transferFingerprint(
  debitKey: string,
  creditKey: string,
  amount: bigint,
  cause: TransferCause,
  link: string,
): string {
  return `${debitKey}>${creditKey}:${amount}:${cause}:${link}`;
}

export function accountKey(owner: string, wallet: Wallet, assetCode: string): string {
  return `${owner}/${wallet}/${assetCode}`;
}

/** The owner part of an account key (owners never contain "/"). */
export function ownerOfAccountKey(key: string): string {
  return key.slice(0, key.indexOf('/'));
}

/** The asset part of an account key (owners and wallets never contain "/"). */
export function assetOfAccountKey(key: string): string {
  return key.slice(key.indexOf('/', key.indexOf('/') + 1) + 1);
}

export class Ledger {
  readonly accounts: Account[] = [];
  private readonly byKey = new Map<string, Account>();
  private readonly numbers = new AccountNumbers();
  /** Live funds and settlement holds by id. Order holds live on their order (no id lookup needed). */
  readonly holds = new Map<string, Hold>();
  /** Ids of idempotent transfers and pending holds → the body they were first used with. */
  readonly usedIds = new Map<string, { fingerprint: string; posted: TransferPosted | null }>();
  /** Records a used transfer/hold id (also from a snapshot). */
  recordUsedId(id: string, fingerprint: string, posted: TransferPosted | null): void {
    this.usedIds.set(id, { fingerprint, posted });
  }

  /** The account, opened with a zero balance on first use. */
  account(owner: string, wallet: Wallet, asset: Asset): Account {
    const key = accountKey(owner, wallet, asset.code);
    let account = this.byKey.get(key);
    if (account === undefined) {
      const index = this.accounts.length;
      this.numbers.ensure(index);
      account = new Account(index, key, owner, wallet, asset, this.numbers);
      this.numbers.platform[index] = account.isPlatform ? 1 : 0;
      this.numbers.keys.push(key);
      this.numbers.assetIds[index] = this.numbers.assetIdOf(asset.code);
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
    const fingerprint = transferFingerprint(input.debit.key, input.credit.key, input.amount, input.cause, input.link);
    const used = this.usedTransfer(input.id, fingerprint);
    if (used !== undefined) return used;
    if (input.amount <= 0n) return { ok: false, code: 'invalid_amount' };
    if (input.debit === input.credit) return { ok: false, code: 'same_account' };
    if (!input.debit.isPlatform && input.debit.isAvailableBelow(input.amount)) {
      return { ok: false, code: 'insufficient_balance' };
    }
    const posted = this.move(input.debit, input.credit, input.amount, input.id, input.cause, input.link, input.timeMs);
    this.recordUsedId(input.id, fingerprint, posted);
    return { ok: true, posted, duplicate: false };
  }

  /**
   * What transfer() answers for an id already used: the first result for the same body (the fingerprint
   * of transferFingerprint), transfer_id_reused for another; undefined for an id not used yet. Callers
   * ask it before opening any account, so that a refused command opens none.
   */
  usedTransfer(id: string, fingerprint: string): TransferOutcome | undefined {
    const used = this.usedIds.get(id);
    if (used === undefined) return undefined;
    if (used.fingerprint !== fingerprint || used.posted === null) return { ok: false, code: 'transfer_id_reused' };
    return { ok: true, posted: used.posted, duplicate: true };
  }

  /** Whether a funds or settlement hold may take `id` (createHold's check, asked before opening an account). */
  isHoldIdFree(id: string): boolean {
    return !this.holds.has(id) && !this.usedIds.has(id);
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
    if (!this.isHoldIdFree(id)) return { ok: false, code: 'transfer_id_reused' };
    if (!account.isPlatform && account.isAvailableBelow(amount)) return { ok: false, code: 'insufficient_balance' };
    const hold = new Hold(id, kind, account, amount, cause, link);
    account.addHeld(amount);
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
    account.addHeld(amount);
    return new Hold('', 'order', account, amount, 'trade', '');
  }

  // The hot path (trading and settlement) below works on account indexes and safe-integer amounts, so
  // it reads and writes the typed arrays only; every method falls back to the bigint path when a number
  // would leave the safe range, so results are the same as with bigints throughout.

  /** The key of account `index` (what transfer events name it by). */
  keyOf(index: number): string {
    return this.numbers.keys[index] as string;
  }

  /** The asset code of account `index`. */
  assetCodeOf(index: number): string {
    return this.numbers.assetCodeById[this.numbers.assetIds[index] as number] as string;
  }

  /** Account.isAvailableBelow for account `index` and a safe-integer amount. */
  isAvailableBelowN(index: number, amount: number): boolean {
    const numbers = this.numbers;
    const free = (numbers.balance[index] as number) - (numbers.held[index] as number);
    if (Number.isSafeInteger(free)) return free < amount;
    return (this.accounts[index] as Account).isAvailableBelow(BigInt(amount));
  }

  /**
   * holdForOrder for a safe-integer amount (the caller checked it is available); `recycled`, a closed
   * order hold nothing refers to any more, is reused instead of allocating a new one.
   */
  holdForOrderN(account: Account, index: number, amount: number, recycled?: Hold): Hold {
    if (amount < 0) throw new Error(`order hold of ${amount}`);
    this.addHeldN(index, amount);
    if (recycled === undefined) return new Hold('', 'order', account, amount, 'trade', '', index);
    recycled.reuseForOrder(account, index, amount);
    return recycled;
  }

  private addHeldN(index: number, amount: number): void {
    const numbers = this.numbers;
    const next = (numbers.held[index] as number) + amount;
    if (Number.isSafeInteger(next)) numbers.held[index] = next;
    else (this.accounts[index] as Account).addHeld(BigInt(amount));
  }

  private subtractHeldN(index: number, amount: number): void {
    const numbers = this.numbers;
    const next = (numbers.held[index] as number) - amount;
    if (Number.isSafeInteger(next)) numbers.held[index] = next;
    else (this.accounts[index] as Account).subtractHeld(BigInt(amount));
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
    if (amount <= 0n || hold.isBelow(amount))
      throw new Error(`hold ${hold.id}: cannot post ${amount} of ${hold.remaining}`);
    hold.subtract(amount);
    hold.account.subtractHeld(amount);
    const posted = this.move(hold.account, credit, amount, transferId, cause, link, timeMs);
    if (hold.kind === 'funds' && hold.isEmpty()) this.holds.delete(hold.id);
    return posted;
  }

  /**
   * postFromHold on account indexes for a positive safe-integer amount, without an event (the result log
   * writes a fill's events itself, and a quiet replay writes none). `what` names the transfer in an error.
   */
  postFromHoldQuietN(hold: Hold, credit: number, amountN: number, what: string): void {
    if (!(amountN > 0) || hold.isBelowN(amountN))
      throw new Error(`hold ${hold.id}: cannot post ${amountN} of ${hold.remaining} (${what})`);
    hold.subtractN(amountN);
    this.subtractHeldN(hold.accountIndex, amountN);
    this.shiftN(hold.accountIndex, credit, amountN, what);
    if (hold.kind === 'funds' && hold.isEmpty()) this.holds.delete(hold.id);
  }

  /** move() on account indexes for a safe-integer amount, without an event (see postFromHoldQuietN). */
  moveQuietN(debit: number, credit: number, amountN: number, what: string): void {
    if (!(amountN > 0)) throw new Error(`transfer ${what}: amount must be positive`);
    this.shiftN(debit, credit, amountN, what);
  }

  /** Releases `amount` (default: all that remains) of a hold back to the available balance. */
  release(hold: Hold, amount?: bigint): void {
    if (amount === undefined) {
      const all = hold.remainingNumber();
      if (all !== -1) {
        hold.subtractN(all);
        this.subtractHeldN(hold.accountIndex, all);
        return;
      }
    }
    const value = amount ?? hold.remaining;
    if (value < 0n || hold.isBelow(value)) throw new Error(`hold ${hold.id}: cannot release ${value}`);
    hold.subtract(value);
    hold.account.subtractHeld(value);
  }

  /** Ends a hold: releases what remains and forgets it. */
  close(hold: Hold): void {
    if (!hold.isEmpty()) this.release(hold);
    if (hold.kind !== 'order') this.holds.delete(hold.id);
  }

  /** Sets a hold to `amount`, reserving more only if the account has it available. */
  resize(hold: Hold, amount: bigint): boolean {
    const delta = amount - hold.remaining;
    if (delta > 0n && !hold.account.isPlatform && hold.account.isAvailableBelow(delta)) return false;
    hold.remaining = amount;
    hold.account.addHeld(delta);
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
    debit.subtractBalance(amount);
    if (!debit.isPlatform && debit.isBelowHeld()) {
      throw new Error(`transfer ${transferId}: ${debit.key} would go below its holds`);
    }
    credit.addBalance(amount);
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

  /**
   * move()'s balance changes and checks on account indexes, for a positive safe-integer amount (a balance
   * that would leave the safe range goes to bigint, as the amount's bigint); `what` names the transfer in
   * an error.
   */
  private shiftN(debit: number, credit: number, amountN: number, what: string): void {
    const numbers = this.numbers;
    const assetId = numbers.assetIds[debit] as number;
    if (assetId !== numbers.assetIds[credit]) throw new Error(`transfer ${what}: asset mismatch`);
    const balance = (numbers.balance[debit] as number) - amountN;
    if (Number.isSafeInteger(balance)) {
      numbers.balance[debit] = balance;
      if (balance < (numbers.held[debit] as number) && numbers.platform[debit] === 0) {
        throw new Error(`transfer ${what}: ${numbers.keys[debit]} would go below its holds`);
      }
    } else {
      const account = this.accounts[debit] as Account;
      account.subtractBalance(BigInt(amountN));
      if (!account.isPlatform && account.isBelowHeld()) {
        throw new Error(`transfer ${what}: ${account.key} would go below its holds`);
      }
    }
    const credited = (numbers.balance[credit] as number) + amountN;
    if (Number.isSafeInteger(credited)) numbers.balance[credit] = credited;
    else (this.accounts[credit] as Account).addBalance(BigInt(amountN));
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
        const remaining = hold.remaining;
        if (remaining < 0n) return `hold ${hold.id || hold.kind} is negative`;
        heldByAccount.set(hold.account, (heldByAccount.get(hold.account) ?? 0n) + remaining);
      }
    }
    for (const account of this.accounts) {
      // Each read of balance/held makes a bigint: read them once.
      const balance = account.balance;
      const held = account.held;
      const code = account.asset.code;
      sums.set(code, (sums.get(code) ?? 0n) + balance);
      const holdsSum = heldByAccount.get(account) ?? 0n;
      if (held !== holdsSum) return `${account.key} held ${held} but its holds sum to ${holdsSum}`;
      if (account.isPlatform) continue;
      if (balance < 0n) return `${account.key} is negative: ${balance}`;
      if (held < 0n || held > balance) return `${account.key} holds ${held} of ${balance}`;
    }
    for (const [asset, sum] of sums) if (sum !== 0n) return `${asset} balances sum to ${sum}, not zero`;
    return undefined;
  }
}

export function available(account: Account): bigint {
  return account.balance - account.held;
}
