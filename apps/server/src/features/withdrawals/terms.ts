// What each withdrawal rail takes, per asset: its limits, its flat fee (taken from the amount), the
// amount above which finance staff review it, which wallet it is paid from and which platform account
// (`rail:…`) receives the money when paid. The deployment sets the review thresholds and closes rails
// (config.ts: WITHDRAW_REVIEW_ABOVE, WITHDRAWALS_CLOSED); the rest are this table's values.

import type { WithdrawalRail } from '@bourse/contract';
import type { PlatformAccountName, Wallet } from '@bourse/engine';

export type RailTerms = {
  rail: WithdrawalRail;
  asset: string;
  /** The blockchain network (crypto only). */
  network: 'BTC' | 'ETH' | null;
  /** The customer's wallet the amount is held in and paid from. */
  wallet: Wallet;
  /** Where a paid withdrawal's money goes in the ledger (amount − fee; the fee goes to `fees`). */
  platformAccount: PlatformAccountName;
  min: string;
  max: string;
  fee: string;
  reviewAbove: string;
};

/** The settings a deployment chooses (config.ts). */
export type WithdrawSettings = {
  /** Per asset (INR, BRL, BTC, ETH, USDT), decimal: above it a withdrawal waits for finance staff. */
  reviewAbove: Record<string, string>;
  /** Rails that take no withdrawals now: `bank`, `pix`, `crypto`, or one asset of one (`crypto:BTC`). */
  closed: readonly string[];
  /** How often the payout outbox is worked (ms); 0: only when asked (tests). */
  payoutEveryMs: number;
  /** Test hooks only: where a payout pauses for the crash test to kill the process (payouts.ts). */
  pauseAt: 'after_accept' | 'after_post' | null;
};

export const DEFAULT_REVIEW_ABOVE: Readonly<Record<string, string>> = {
  INR: '50000',
  BRL: '5000',
  BTC: '0.1',
  ETH: '2',
  USDT: '5000',
};

// Payouts leave from the same platform account their rail's deposits arrive on (deposits/service.ts,
// crypto-deposits/watcher.ts railAccount), so each rail's account nets what moved through it both ways.
const TERMS: readonly Omit<RailTerms, 'reviewAbove'>[] = [
  {
    rail: 'bank',
    asset: 'INR',
    network: null,
    wallet: 'stock',
    platformAccount: 'rail:bank',
    min: '100',
    max: '1000000',
    fee: '10',
  },
  {
    rail: 'bank',
    asset: 'BRL',
    network: null,
    wallet: 'stock',
    platformAccount: 'rail:bank',
    min: '10',
    max: '200000',
    fee: '3.50',
  },
  {
    rail: 'pix',
    asset: 'BRL',
    network: null,
    wallet: 'stock',
    platformAccount: 'rail:pix',
    min: '1',
    max: '100000',
    fee: '0.50',
  },
  {
    rail: 'crypto',
    asset: 'BTC',
    network: 'BTC',
    wallet: 'spot',
    platformAccount: 'rail:crypto-btc',
    min: '0.0005',
    max: '5',
    fee: '0.0001',
  },
  {
    rail: 'crypto',
    asset: 'ETH',
    network: 'ETH',
    wallet: 'spot',
    platformAccount: 'rail:crypto-eth',
    min: '0.005',
    max: '100',
    fee: '0.001',
  },
  {
    rail: 'crypto',
    asset: 'USDT',
    network: 'ETH',
    wallet: 'spot',
    platformAccount: 'rail:crypto-eth',
    min: '10',
    max: '200000',
    fee: '1',
  },
];

export class WithdrawTerms {
  readonly #settings: WithdrawSettings;
  constructor(settings: WithdrawSettings) {
    this.#settings = settings;
  }

  all(): RailTerms[] {
    return TERMS.map((t) => this.#with(t));
  }

  find(rail: WithdrawalRail, asset: string, network: string | null): RailTerms | undefined {
    const t = TERMS.find((x) => x.rail === rail && x.asset === asset && x.network === network);
    return t && this.#with(t);
  }

  isOpen(t: { rail: WithdrawalRail; asset: string }): boolean {
    const closed = this.#settings.closed;
    return !closed.includes('all') && !closed.includes(t.rail) && !closed.includes(`${t.rail}:${t.asset}`);
  }

  #with(t: Omit<RailTerms, 'reviewAbove'>): RailTerms {
    return { ...t, reviewAbove: this.#settings.reviewAbove[t.asset] ?? DEFAULT_REVIEW_ABOVE[t.asset] ?? '0' };
  }
}
