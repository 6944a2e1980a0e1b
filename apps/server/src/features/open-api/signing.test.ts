// Binance's own signing examples (its SIGNED endpoint documentation), and the timing rule's edges.

import { describe, expect, it } from 'vitest';
import { BinanceError } from './binance-errors.ts';
import { checkSignature, checkTimestamp, hmacHex, signedPayload } from './signing.ts';

const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';

const codeOf = (fn: () => void) => {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof BinanceError ? e.binanceCode : 'other';
  }
};

describe('Binance request signing', () => {
  it('signs the query string (Binance’s example 1)', () => {
    const query =
      'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    expect(hmacHex(SECRET, query)).toBe('c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71');
    const sent = signedPayload(
      `${query}&signature=c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71`,
      '',
    );
    expect(sent.payload).toBe(query);
    expect(codeOf(() => checkSignature(SECRET, sent.payload, sent.signature))).toBeNull();
  });

  it('signs the query followed directly by the body (Binance’s mixed example)', () => {
    const sent = signedPayload(
      'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC',
      'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559&signature=0fd168b8ddb4876a0358a8d14d0c9f3da0e9b20c5d52b2a00fcf7d1c602f9a77',
    );
    expect(sent.payload).toBe(
      'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTCquantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559',
    );
    expect(codeOf(() => checkSignature(SECRET, sent.payload, sent.signature))).toBeNull();
    expect(codeOf(() => checkSignature(SECRET, `${sent.payload}0`, sent.signature))).toBe(-1022);
    expect(codeOf(() => checkSignature(SECRET, sent.payload, null))).toBe(-1102);
  });

  it('takes a timestamp within recvWindow before now and under a second ahead', () => {
    const now = 1_700_000_000_000;
    const at = (timestamp: number, recvWindow?: number) =>
      codeOf(() =>
        checkTimestamp(
          new URLSearchParams({
            timestamp: String(timestamp),
            ...(recvWindow ? { recvWindow: String(recvWindow) } : {}),
          }),
          now,
        ),
      );
    expect(at(now)).toBeNull();
    expect(at(now - 5_000)).toBeNull();
    expect(at(now - 5_001)).toBe(-1021);
    expect(at(now + 999)).toBeNull();
    expect(at(now + 1_000)).toBe(-1021);
    expect(at(now - 60_000, 60_000)).toBeNull();
    expect(at(now, 60_001)).toBe(-1131);
    expect(codeOf(() => checkTimestamp(new URLSearchParams(), now))).toBe(-1102);
    expect(codeOf(() => checkTimestamp(new URLSearchParams({ timestamp: '1e12' }), now))).toBe(-1102);
  });
});
