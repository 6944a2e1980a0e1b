import type { SpotPairView } from '@bourse/contract';
import { instrumentById } from '@bourse/market';
import { describe, expect, it } from 'vitest';
import { klineView, product, symbolInfo, tradeView } from './market-views.ts';

const pair: SpotPairView = {
  id: 'CRYPTO:BTCUSDT',
  symbol: 'BTCUSDT',
  name: 'Bitcoin / TetherUS',
  base: 'BTC',
  quote: 'USDT',
  tickSize: '0.01',
  lotSize: '0.00001',
  minQuantity: '0.00001',
  maxQuantity: '100',
  minNotional: '5',
  makerFeeBps: 10,
  takerFeeBps: 10,
  marketProtectionBps: 500,
  trading: true,
  listed: true,
  liquidityAccount: 'mm',
  favourite: false,
};

describe('Binance market-data shapes', () => {
  it('multiplies decimal strings exactly', () => {
    expect(product('60000.01', '0.00001')).toBe('0.6000001');
    expect(product('3', '4')).toBe('12');
    expect(product('0.1', '0.2')).toBe('0.02');
  });

  it('describes a pair with PRICE_FILTER, LOT_SIZE and the notional filters', () => {
    const info = symbolInfo(pair);
    expect(info).toMatchObject({ symbol: 'BTCUSDT', status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT' });
    expect(info.filters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ filterType: 'PRICE_FILTER', tickSize: '0.01', minPrice: '0.01' }),
        expect.objectContaining({ filterType: 'LOT_SIZE', stepSize: '0.00001', minQty: '0.00001', maxQty: '100' }),
        expect.objectContaining({ filterType: 'MIN_NOTIONAL', minNotional: '5' }),
        expect.objectContaining({ filterType: 'NOTIONAL', minNotional: '5' }),
      ]),
    );
    expect(symbolInfo({ ...pair, trading: false }).status).toBe('BREAK');
  });

  it('writes trades and klines as Binance does', () => {
    const btc = instrumentById('CRYPTO:BTCUSDT');
    expect(tradeView(btc, { id: 9, priceTicks: 6_000_001, sizeLots: 3, timeMs: 5, side: 'sell' })).toMatchObject({
      id: 9,
      isBuyerMaker: true,
      time: 5,
    });
    const k = klineView(btc, {
      instrumentId: btc.id,
      interval: '1h',
      startMs: 3_600_000,
      open: 1,
      high: 3,
      low: 1,
      close: 2,
      volumeLots: 7,
    });
    expect(k[0]).toBe(3_600_000);
    expect(k[6]).toBe(7_199_999);
    expect(k).toHaveLength(12);
  });
});
