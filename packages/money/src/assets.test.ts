import { describe, expect, it } from 'vitest';
import { ASSETS, BUILT_IN_ASSETS, MAX_SCALE, parseAssetDefinition, shareAsset, shareAssetOf } from './assets.ts';

describe('assets', () => {
  it('has one table of built-in assets, each code once, at its chain or currency scale', () => {
    const codes = BUILT_IN_ASSETS.map((a) => a.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(BUILT_IN_ASSETS).toEqual(Object.values(ASSETS));
    for (const [key, asset] of Object.entries(ASSETS)) expect(asset.code).toBe(key);
    expect(ASSETS.INR).toEqual({ code: 'INR', scale: 2, kind: 'fiat' });
    expect(ASSETS.USDT.scale).toBe(6);
    expect(ASSETS.ETH.scale).toBe(18);
    // The coins the crypto catalogue lists beyond the first eight.
    expect([ASSETS.LTC.scale, ASSETS.LINK.scale, ASSETS.AVAX.scale, ASSETS.DOT.scale]).toEqual([8, 18, 18, 10]);
  });

  it('implies share assets by their code', () => {
    expect(shareAsset('NSE', 'RELIANCE')).toEqual({ code: 'SHARE:NSE:RELIANCE', scale: 0 });
    expect(shareAssetOf('SHARE:NSE:TCS')).toEqual({ code: 'SHARE:NSE:TCS', scale: 0, kind: 'share' });
    expect(shareAssetOf('SHARE:nse:TCS')).toBeUndefined();
    expect(shareAssetOf('NOPE')).toBeUndefined();
  });

  it('accepts a registrable definition and refuses the rest', () => {
    expect(parseAssetDefinition('PEPE', 18, 'crypto')).toEqual({ code: 'PEPE', scale: 18, kind: 'crypto' });
    expect(parseAssetDefinition('EUR', 2, 'fiat')).toEqual({ code: 'EUR', scale: 2, kind: 'fiat' });
    expect(parseAssetDefinition('USDC', 0, 'collateral')?.scale).toBe(0);
    expect(parseAssetDefinition('X', 2, 'fiat')).toBeUndefined();
    expect(parseAssetDefinition('pepe', 2, 'crypto')).toBeUndefined();
    expect(parseAssetDefinition('SHARE:NSE:TCS', 0, 'share')).toBeUndefined();
    expect(parseAssetDefinition('TCS', 0, 'share')).toBeUndefined();
    expect(parseAssetDefinition('PEPE', MAX_SCALE + 1, 'crypto')).toBeUndefined();
    expect(parseAssetDefinition('PEPE', -1, 'crypto')).toBeUndefined();
    expect(parseAssetDefinition('PEPE', 1.5, 'crypto')).toBeUndefined();
    expect(parseAssetDefinition('PEPE', '8', 'crypto')).toBeUndefined();
    expect(parseAssetDefinition('PEPE', 8, 'meme')).toBeUndefined();
    expect(parseAssetDefinition(42, 8, 'crypto')).toBeUndefined();
  });
});
