import type { SpotOrderView } from '@bourse/contract';
import { describe, expect, it } from 'vitest';
import { BinanceError } from './binance-errors.ts';
import { binanceStatus, newOrderView, orderView, parseNewOrder } from './order-views.ts';

const order = (over: Partial<SpotOrderView> = {}): SpotOrderView => ({
  id: 7,
  clientOrderId: null,
  symbol: 'BTCUSDT',
  base: 'BTC',
  quote: 'USDT',
  side: 'buy',
  type: 'limit',
  timeInForce: 'gtc',
  postOnly: false,
  price: '60000.00',
  stopPrice: null,
  quantity: '0.01000000',
  filledQuantity: '0.00000000',
  avgPrice: null,
  filledAmount: '0.000000',
  fee: '0.000000',
  feeAsset: 'USDT',
  status: 'pending',
  createdAt: 1000,
  updatedAt: 2000,
  ...over,
});

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof BinanceError ? e.binanceCode : 'other';
  }
};

describe('Binance order shapes', () => {
  it('maps the platform’s statuses to Binance’s', () => {
    expect(binanceStatus(order(), true)).toBe('NEW');
    expect(binanceStatus(order({ status: 'untriggered' }), true)).toBe('NEW');
    expect(binanceStatus(order({ status: 'partial' }), true)).toBe('PARTIALLY_FILLED');
    expect(binanceStatus(order({ status: 'partial' }), false)).toBe('EXPIRED');
    expect(binanceStatus(order({ status: 'completed' }), false)).toBe('FILLED');
    expect(binanceStatus(order({ status: 'cancelled' }), false)).toBe('CANCELED');
    expect(binanceStatus(order({ status: 'closed' }), false)).toBe('EXPIRED');
  });

  it('answers an order with Binance’s fields, naming an app order’s missing client id', () => {
    expect(orderView(order({ postOnly: true }), true)).toMatchObject({
      symbol: 'BTCUSDT',
      orderId: 7,
      clientOrderId: 'bourse-7',
      type: 'LIMIT_MAKER',
      side: 'BUY',
      timeInForce: 'GTC',
      origQty: '0.01000000',
      stopPrice: '0.00000000',
      isWorking: true,
      time: 1000,
      updateTime: 2000,
    });
    expect(orderView(order({ type: 'market', price: '' }), false)).toMatchObject({
      type: 'MARKET',
      price: '0.00000000',
    });
    expect(orderView(order({ type: 'stop_limit', status: 'untriggered', stopPrice: '59000.00' }), true)).toMatchObject({
      type: 'STOP_LOSS_LIMIT',
      stopPrice: '59000.00',
      isWorking: false,
      workingTime: -1,
    });
    const fill = {
      id: 3,
      orderId: 7,
      symbol: 'BTCUSDT',
      side: 'buy' as const,
      price: '60000.00',
      quantity: '0.01',
      amount: '600.000000',
      fee: '0.600000',
      feeAsset: 'USDT',
      liquidity: 'taker' as const,
      time: 1500,
    };
    expect(newOrderView(order(), true, 'ACK', [fill])).toEqual({
      symbol: 'BTCUSDT',
      orderId: 7,
      orderListId: -1,
      clientOrderId: 'bourse-7',
      transactTime: 1000,
    });
    expect(newOrderView(order(), true, 'FULL', [fill])).toMatchObject({
      status: 'NEW',
      fills: [{ price: '60000.00', qty: '0.01', commission: '0.600000', commissionAsset: 'USDT', tradeId: 3 }],
    });
  });

  it('turns Binance’s new-order parameters into the contract’s order', () => {
    const p = (o: Record<string, string>) => new URLSearchParams(o);
    const id = () => 'generated-id-0001';
    expect(
      parseNewOrder(
        p({ side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.5', price: '100.5' }),
        'BTCUSDT',
        id,
      ),
    ).toEqual({
      input: expect.objectContaining({
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'limit',
        timeInForce: 'ioc',
        quantity: '0.5',
        price: '100.5',
        postOnly: false,
        clientOrderId: 'generated-id-0001',
      }),
      respType: 'FULL',
    });
    expect(
      parseNewOrder(p({ side: 'SELL', type: 'LIMIT_MAKER', quantity: '1', price: '2' }), 'BTCUSDT', id),
    ).toMatchObject({
      input: { type: 'limit', postOnly: true, timeInForce: 'gtc' },
      respType: 'ACK',
    });
    expect(parseNewOrder(p({ side: 'BUY', type: 'MARKET', quoteOrderQty: '25' }), 'BTCUSDT', id).input).toMatchObject({
      type: 'market',
      quoteAmount: '25',
    });
    expect(
      parseNewOrder(
        p({
          side: 'SELL',
          type: 'STOP_LOSS_LIMIT',
          timeInForce: 'GTC',
          quantity: '1',
          price: '9',
          stopPrice: '10',
          newClientOrderId: 'abc:def/12',
        }),
        'BTCUSDT',
        id,
      ).input,
    ).toMatchObject({ type: 'stop_limit', stopPrice: '10', clientOrderId: 'abc:def/12' });
  });

  it('refuses what Binance refuses, with its codes', () => {
    const p = (o: Record<string, string>) => new URLSearchParams(o);
    const parse = (o: Record<string, string>) => () => parseNewOrder(p(o), 'BTCUSDT', () => 'generated-id-0001');
    expect(codeOf(parse({ type: 'LIMIT' }))).toBe(-1102);
    expect(codeOf(parse({ side: 'BOTH', type: 'LIMIT' }))).toBe(-1117);
    expect(codeOf(parse({ side: 'BUY', type: 'OCO' }))).toBe(-1116);
    expect(codeOf(parse({ side: 'BUY', type: 'LIMIT', quantity: '1', price: '1' }))).toBe(-1102); // timeInForce
    expect(codeOf(parse({ side: 'BUY', type: 'LIMIT', timeInForce: 'DAY', quantity: '1', price: '1' }))).toBe(-1115);
    expect(codeOf(parse({ side: 'BUY', type: 'MARKET', quantity: '1', price: '1' }))).toBe(-1106);
    expect(codeOf(parse({ side: 'SELL', type: 'MARKET', quoteOrderQty: '1' }))).toBe(-1106);
    expect(codeOf(parse({ side: 'BUY', type: 'MARKET' }))).toBe(-1102);
    expect(codeOf(parse({ side: 'BUY', type: 'MARKET', quantity: '-1' }))).toBe(-1100);
    expect(codeOf(parse({ side: 'BUY', type: 'MARKET', quantity: '1', newClientOrderId: 'short' }))).toBe(-1100);
    expect(codeOf(parse({ side: 'BUY', type: 'MARKET', quantity: '1', newOrderRespType: 'ALL' }))).toBe(-1100);
  });
});
