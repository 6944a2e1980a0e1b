// Every coin the market catalogue lists can be traded in the engine as it starts (issue 22: LTC, LINK,
// AVAX and DOT were missing from the asset tables, so their pairs could not even be registered).

import { Engine, type InstrumentSpec } from '@bourse/engine';
import { INSTRUMENTS } from '@bourse/market';
import { parseDecimal } from '@bourse/money';
import { expect, it } from 'vitest';

const CRYPTO_INSTRUMENTS = INSTRUMENTS.filter((i) => i.kind === 'crypto');

it('registers and trades every pair of the crypto catalogue at its start price', () => {
  const engine = new Engine();
  let n = 0;
  const id = () => `c${++n}`;
  for (const instrument of CRYPTO_INSTRUMENTS) {
    const base = instrument.baseAsset as string;
    const quote = engine.asset(instrument.currency);
    expect(engine.asset(base)?.kind, base).toBe('crypto');
    const tick = parseDecimal(instrument.tickSize, quote?.scale ?? 0);
    const priceTicks = Number(parseDecimal(instrument.startPrice, quote?.scale ?? 0) / tick);
    const spec: InstrumentSpec = {
      id: instrument.id,
      kind: 'spot',
      base,
      quote: instrument.currency,
      wallet: 'spot',
      tickSize: instrument.tickSize,
      lotSize: instrument.lotSize,
      maxPriceTicks: priceTicks * 2,
      minQtyLots: 1,
      maxQtyLots: 1_000_000,
      makerFeeBps: 10,
      takerFeeBps: 10,
      marketProtectionBps: 500,
      defaultStp: 'cancel_resting',
    };
    const register = engine.apply({ id: id(), timeMs: 1, type: 'register_instrument', instrument: spec });
    expect(register.ok, instrument.id).toBe(true);
    const grant = { timeMs: 1, type: 'deposit', wallet: 'spot', from: 'faucet', cause: 'paper_grant' } as const;
    expect(engine.apply({ ...grant, id: id(), userId: 'seller', asset: base, amount: instrument.lotSize }).ok).toBe(
      true,
    );
    expect(engine.apply({ ...grant, id: id(), userId: 'buyer', asset: 'USDT', amount: '1000000' }).ok).toBe(true);
    const order = {
      timeMs: 1,
      type: 'place_order',
      instrumentId: spec.id,
      orderType: 'limit',
      priceTicks,
      qtyLots: 1,
    } as const;
    expect(engine.apply({ ...order, id: id(), userId: 'seller', side: 'sell' }).ok).toBe(true);
    const buy = engine.apply({ ...order, id: id(), userId: 'buyer', side: 'buy' });
    expect(buy.ok && buy.events.some((e) => e.type === 'trade'), instrument.id).toBe(true);
    expect(engine.balance('buyer', 'spot', base).balance, instrument.id).toBe(
      parseDecimal(instrument.lotSize, engine.asset(base)?.scale ?? 0),
    );
  }
  expect(CRYPTO_INSTRUMENTS.map((i) => i.baseAsset)).toEqual(expect.arrayContaining(['LTC', 'LINK', 'AVAX', 'DOT']));
  expect(engine.findBrokenInvariant()).toBeUndefined();
});
