import { describe, expect, it } from 'vitest';
import { runSimulation } from './simulation.ts';

describe('seeded simulation', () => {
  it('runs 20,000 random commands with the engine agreeing with the naive reference and every invariant holding', {
    timeout: 120_000,
  }, () => {
    // Seed 20,240,602 since liquidations cancel the customer's orders (20,240,601's mix no longer had a
    // liquidation paid by the insurance fund).
    const report = runSimulation({ seed: 20_240_604, commands: 20_000 });
    if (!report.ok)
      throw new Error(`seed ${report.seed} step ${report.step}: ${report.message} ${JSON.stringify(report.command)}`);
    expect(report.trades).toBeGreaterThan(1_000);
    expect(report.accepted).toBeGreaterThan(5_000);
    // It reaches the paths it is meant to: T+1 locks, funds holds, the price band, the open order limit,
    // and halted trading (queued orders, their cancels and refused amends, what the open does to them).
    for (const path of [
      'settle_trades',
      'place_order:refused_by_settlement_locks',
      'hold_funds',
      'post_hold',
      'void_hold',
      'place_order:price_outside_band',
      'amend_order:price_outside_band',
      'set_trading_status',
      'order_placed:queued:limit',
      'order_placed:queued:market',
      'cancel_order:queued',
      'amend_order:order_not_amendable',
      'place_order:instrument_halted',
      'set_trading_status:open_with_trades',
      'set_trading_status:open_after_band_change',
      'set_trading_status:rejected:price_outside_band',
      'set_trading_status:cancelled:no_liquidity',
      'set_instrument_fees',
      'convert',
      'convert:insufficient_balance',
      // The spot pair's liquidity account: its ladder trades with customers, its cancels and its funding.
      'mm:trade',
      'mm:cancel_order',
    ]) {
      expect(report.coverage[path], path).toBeGreaterThan(10);
    }
    // Rarer: an order past the open-order limit; posting more than a hold has left; triggers that waited through a halt fire at the open; an
    // amend that would trade while halted is refused; a fill-or-kill order fires and cannot fill; a large
    // market order sweeps five levels or more; a coin registered at run time, granted at its own scale.
    for (const path of [
      'post_hold:hold_amount_exceeded',
      'place_order:open_order_limit', // rarer since funds and convert commands share the mix
      'post_hold:with_fee',
      'post_hold:with_fee:invalid_amount',
      'set_trading_status:open_fires_triggers',
      'amend_order:instrument_halted',
      'trigger_fired:fok_not_fillable',
      'place_order:swept_5_levels',
      'register_asset',
      'register_asset:asset_exists',
      'register_asset:invalid_asset',
      'deposit:registered_coin',
      'convert:same_asset',
      'mm:deposit',
      // Primary-market settlement: batches settled, and batches refused whole.
      'settle_allotment',
      'settle_allotment:allocation_invalid',
      // Options: bought, closed early, settled at expiry, and each refusal.
      'buy_option',
      'buy_option:insufficient_balance',
      'buy_option:option_exists',
      'close_option',
      'close_option:option_expired',
      'close_option:option_not_found',
      'settle_options',
      'settle_options:option_not_expired',
    ]) {
      expect(report.coverage[path], path).toBeGreaterThan(0);
    }
    // The perpetual: leverage and margin changes (and their refusals), liquidations in the book and by
    // ADL, one paid by the insurance fund, funding paid, reduce-only orders.
    for (const path of [
      'set_leverage',
      'set_leverage:leverage_open_orders',
      'adjust_margin',
      'adjust_margin:insufficient_margin',
      'liquidate:not_liquidatable',
      'liquidate:with_adl',
      'apply_funding:paid',
    ]) {
      expect(report.coverage[path], path).toBeGreaterThan(10);
    }
    for (const path of [
      'liquidate:in_book',
      'liquidate:paid_by_insurance_fund',
      'position:closed',
      'place_order:reduce_only_rejected',
      // A liquidation cancels the customer's other orders on the contract first (a waiting TP/SL among
      // them), so a TP/SL firing after its position closed ('reduce_only:nothing_left') is now rare in
      // this mix: positions.test.ts's take-profit scenario covers it.
      'liquidate:cancelled_orders',
      // Loans paid out, charged interest and repaid through their own platform accounts (decision 0039).
      'loan:repaid_to_zero',
    ]) {
      expect(report.coverage[path], path).toBeGreaterThan(0);
    }
  });

  it('agrees with the reference with amounts past 2^53 minor units: deposits, holds, fills and fees', {
    timeout: 120_000,
  }, () => {
    const report = runSimulation({ seed: 20_261_124, commands: 10_000, bigAmounts: true });
    if (!report.ok)
      throw new Error(`seed ${report.seed} step ${report.step}: ${report.message} ${JSON.stringify(report.command)}`);
    // Both a whale's deposits and fills between whales moved amounts the ledger's numbers cannot carry.
    expect(report.coverage['transfer:paper_grant:beyond_2^53']).toBeGreaterThan(0);
    expect(report.coverage['transfer:trade:beyond_2^53']).toBeGreaterThan(0);
  });

  it('gives the same state hash for the same seed, and another for another seed', () => {
    const a = runSimulation({ seed: 7, commands: 2_000, checkReplay: false });
    const b = runSimulation({ seed: 7, commands: 2_000, checkReplay: false });
    const c = runSimulation({ seed: 8, commands: 2_000, checkReplay: false });
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (a.ok && b.ok && c.ok) {
      expect(a.hash).toBe(b.hash);
      expect(a.hash).not.toBe(c.hash);
    }
  });
});
