// Proves how crypto deposit settings are read: paper mode ships its test xpubs, live mode has none
// unless configured, a private extended key or a malformed entry stops start-up.

import { describe, expect, it } from 'vitest';
import { loadCryptoDepositSettings, PAPER_XPUBS } from './settings.ts';

const V2_XPUB =
  'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB';
const V1_XPRV =
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';

describe('crypto deposit settings', () => {
  it('paper mode: the shipped test xpubs, the default minimums, block times and scan interval', () => {
    const s = loadCryptoDepositSettings({}, 'paper');
    expect(s.xpubs).toEqual(PAPER_XPUBS);
    expect(s.minimums).toEqual({ BTC: '0.0001', ETH: '0.005', USDT: '10' });
    expect(s.blockMs).toEqual({ BTC: 60_000, ETH: 12_000 });
    expect(s.scanEveryMs).toBe(5_000);
    expect(s.closed).toEqual([]);
  });

  it('live mode: no xpub unless configured; overrides are read', () => {
    const s = loadCryptoDepositSettings(
      {
        CRYPTO_XPUB_BTC: V2_XPUB,
        CRYPTO_DEPOSIT_MIN: 'usdt:25',
        CRYPTO_BLOCK_MS: 'BTC:1000',
        CRYPTO_DEPOSITS_CLOSED: 'eth, usdt',
        CRYPTO_BTC_ESPLORA_URL: 'https://esplora.example/api',
      },
      'live',
    );
    expect(s.xpubs).toEqual({ BTC: V2_XPUB, ETH: null });
    expect(s.minimums.USDT).toBe('25');
    expect(s.blockMs.BTC).toBe(1000);
    expect(s.closed).toEqual(['ETH', 'USDT']);
    expect(s.live).toEqual({ btcEsploraUrl: 'https://esplora.example/api', ethRpcUrl: null, usdtContract: null });
  });

  it('refuses a private key, a malformed key and malformed entries', () => {
    expect(() => loadCryptoDepositSettings({ CRYPTO_XPUB_BTC: V1_XPRV }, 'live')).toThrow(/private/);
    expect(() => loadCryptoDepositSettings({ CRYPTO_XPUB_ETH: 'xpub-not-a-key' }, 'live')).toThrow();
    expect(() => loadCryptoDepositSettings({ CRYPTO_DEPOSIT_MIN: 'BTC:1e-3' }, 'paper')).toThrow(/decimal/);
    expect(() => loadCryptoDepositSettings({ CRYPTO_BLOCK_MS: 'BTC:0' }, 'paper')).toThrow(/positive/);
    expect(() => loadCryptoDepositSettings({ CRYPTO_SCAN_EVERY_MS: '-5' }, 'paper')).toThrow(/CRYPTO_SCAN_EVERY_MS/);
  });
});
