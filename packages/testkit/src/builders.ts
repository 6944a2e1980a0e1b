// Owns test builders: instrument specs and a command factory that numbers ids and ticks the clock,
// so scenario tables read like statements ("alice buys 5 at 100").
// Must hold: the same calls always build the same commands (ids and times are counters, not clocks).
// Must not: apply commands; the scenario or simulation does.

import type {
  AdjustMargin,
  AmendOrder,
  ApplyFunding,
  CancelOrder,
  Command,
  Deposit,
  InstrumentSpec,
  Liquidate,
  PlaceOrder,
  RegisterAsset,
  SetInstrumentFees,
  SetLeverage,
  SetMarkPrice,
  SetReferencePrice,
  SetTradingStatus,
  TriggerSpec,
  WalletTransfer,
} from '@bourse/engine';

/** BTC/USDT: tick 0.01 USDT, lot 0.0001 BTC, maker 2 bps, taker 5 bps. */
export function btcUsdt(overrides: Partial<InstrumentSpec> = {}): InstrumentSpec {
  return {
    id: 'BTC-USDT',
    kind: 'spot',
    base: 'BTC',
    quote: 'USDT',
    wallet: 'spot',
    tickSize: '0.01',
    lotSize: '0.0001',
    maxPriceTicks: 20_000_000,
    minQtyLots: 1,
    maxQtyLots: 1_000_000,
    makerFeeBps: 2,
    takerFeeBps: 5,
    marketProtectionBps: 500,
    defaultStp: 'cancel_resting',
    ...overrides,
  };
}

/**
 * BTCUSDT perpetual in the contract wallet: tick 0.1 USDT, lot 0.001 BTC, maker 2 bps, taker 4 bps, up to
 * 125x (default 20x), Binance's first four maintenance margin tiers.
 */
export function btcPerp(overrides: Partial<InstrumentSpec> = {}): InstrumentSpec {
  return {
    id: 'BTCUSDT-PERP',
    kind: 'perpetual',
    base: 'BTC',
    quote: 'USDT',
    wallet: 'contract',
    tickSize: '0.1',
    lotSize: '0.001',
    maxPriceTicks: 2_000_000,
    minQtyLots: 1,
    maxQtyLots: 1_000_000,
    makerFeeBps: 2,
    takerFeeBps: 4,
    marketProtectionBps: 500,
    defaultStp: 'cancel_resting',
    perpetual: {
      collateral: 'USDT',
      maxLeverage: 125,
      defaultLeverage: 20,
      tiers: [
        { floor: '0', mmrPpm: 4_000, maxLeverage: 125 },
        { floor: '50000', mmrPpm: 5_000, maxLeverage: 100 },
        { floor: '250000', mmrPpm: 10_000, maxLeverage: 50 },
        { floor: '1000000', mmrPpm: 25_000, maxLeverage: 20 },
      ],
    },
    ...overrides,
  };
}

/** NSE:RELIANCE in the stock wallet: tick 0.05 INR, lot 1 share, no fees unless overridden. */
export function reliance(overrides: Partial<InstrumentSpec> = {}): InstrumentSpec {
  return {
    id: 'NSE:RELIANCE',
    kind: 'stock',
    base: 'SHARE:NSE:RELIANCE',
    quote: 'INR',
    wallet: 'stock',
    tickSize: '0.05',
    lotSize: '1',
    maxPriceTicks: 1_000_000,
    minQtyLots: 1,
    maxQtyLots: 100_000,
    makerFeeBps: 0,
    takerFeeBps: 0,
    marketProtectionBps: 500,
    defaultStp: 'cancel_resting',
    ...overrides,
  };
}

type LimitOptions = Partial<Pick<PlaceOrder, 'timeInForce' | 'postOnly' | 'stp' | 'trigger'>>;

/** Builds commands with ids `c1, c2…` and times 1000, 1001… for one instrument. */
export class CommandFactory {
  private count = 0;
  instrumentId: string;

  constructor(instrumentId: string) {
    this.instrumentId = instrumentId;
  }

  private base(): { id: string; timeMs: number } {
    this.count += 1;
    return { id: `c${this.count}`, timeMs: 1_000 + this.count };
  }

  registerAsset(asset: string, scale: number, kind: RegisterAsset['kind'] = 'crypto'): RegisterAsset {
    return { ...this.base(), type: 'register_asset', asset, scale, kind };
  }

  register(instrument: InstrumentSpec): Command {
    return { ...this.base(), type: 'register_instrument', instrument };
  }

  deposit(userId: string, asset: string, amount: string, wallet: Deposit['wallet'] = 'spot'): Deposit {
    return { ...this.base(), type: 'deposit', userId, wallet, asset, amount, from: 'faucet', cause: 'paper_grant' };
  }

  walletTransfer(
    userId: string,
    asset: string,
    fromWallet: WalletTransfer['fromWallet'],
    toWallet: WalletTransfer['toWallet'],
    amount: string,
  ): WalletTransfer {
    return { ...this.base(), type: 'wallet_transfer', userId, asset, fromWallet, toWallet, amount };
  }

  limit(
    userId: string,
    side: 'buy' | 'sell',
    priceTicks: number,
    qtyLots: number,
    options: LimitOptions = {},
  ): PlaceOrder {
    return {
      ...this.base(),
      type: 'place_order',
      userId,
      instrumentId: this.instrumentId,
      side,
      orderType: 'limit',
      priceTicks,
      qtyLots,
      ...options,
    };
  }

  market(userId: string, side: 'buy' | 'sell', qtyLots: number, trigger?: TriggerSpec): PlaceOrder {
    const order: PlaceOrder = {
      ...this.base(),
      type: 'place_order',
      userId,
      instrumentId: this.instrumentId,
      side,
      orderType: 'market',
      qtyLots,
    };
    if (trigger) order.trigger = trigger;
    return order;
  }

  cancel(userId: string, orderId: number): CancelOrder {
    return { ...this.base(), type: 'cancel_order', userId, orderId };
  }

  amend(userId: string, orderId: number, change: { priceTicks?: number; qtyLots?: number }): AmendOrder {
    return { ...this.base(), type: 'amend_order', userId, orderId, ...change };
  }

  reference(priceTicks: number, band?: [number, number]): SetReferencePrice {
    const command: SetReferencePrice = {
      ...this.base(),
      type: 'set_reference_price',
      instrumentId: this.instrumentId,
      priceTicks,
    };
    if (band) {
      command.bandLoTicks = band[0];
      command.bandHiTicks = band[1];
    }
    return command;
  }

  mark(priceTicks: number): SetMarkPrice {
    return { ...this.base(), type: 'set_mark_price', instrumentId: this.instrumentId, priceTicks };
  }

  halt(halted = true): SetTradingStatus {
    return { ...this.base(), type: 'set_trading_status', instrumentId: this.instrumentId, halted };
  }

  setLeverage(userId: string, leverage: number): SetLeverage {
    return { ...this.base(), type: 'set_leverage', userId, instrumentId: this.instrumentId, leverage };
  }

  /** Adds (positive) or removes (negative, "-5") isolated margin. */
  adjustMargin(userId: string, amount: string): AdjustMargin {
    return { ...this.base(), type: 'adjust_margin', userId, instrumentId: this.instrumentId, amount };
  }

  liquidate(userId: string): Liquidate {
    return { ...this.base(), type: 'liquidate', userId, instrumentId: this.instrumentId };
  }

  funding(ratePpm: number): ApplyFunding {
    return { ...this.base(), type: 'apply_funding', instrumentId: this.instrumentId, ratePpm };
  }

  /** New maker/taker fees (bps) for orders placed from now on. */
  fees(makerFeeBps: number, takerFeeBps: number): SetInstrumentFees {
    return { ...this.base(), type: 'set_instrument_fees', instrumentId: this.instrumentId, makerFeeBps, takerFeeBps };
  }
}
