import { describe, expect, it } from 'vitest';
import { isValidAddress, networksFor, toChecksumAddress } from './crypto-networks.ts';

describe('crypto networks', () => {
  it('knows which networks carry an asset', () => {
    expect(networksFor('USDT').map((n) => n.code)).toEqual(['ETH']);
    expect(networksFor('BTC').map((n) => n.code)).toEqual(['BTC']);
    expect(networksFor('DOGE')).toEqual([]);
  });

  it('checks Bitcoin segwit addresses with the BIP-173 and BIP-350 vectors, per mode', () => {
    expect(isValidAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'live')).toBe(true);
    expect(isValidAddress('BTC', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'live')).toBe(true);
    expect(isValidAddress('BTC', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'paper')).toBe(true);
    expect(isValidAddress('BTC', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'live')).toBe(true);
    // A mainnet address in paper mode, and the reverse, are refused.
    expect(isValidAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'paper')).toBe(false);
    expect(isValidAddress('BTC', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'live')).toBe(false);
    // Wrong checksum, mixed case, v0 with the bech32m checksum, legacy base58.
    expect(isValidAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'live')).toBe(false);
    expect(isValidAddress('BTC', 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'live')).toBe(false);
    expect(isValidAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kf0q0l4', 'live')).toBe(false);
    expect(isValidAddress('BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'live')).toBe(false);
  });

  it('checks EVM addresses with the EIP-55 vectors', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(toChecksumAddress(a.toLowerCase())).toBe(a);
      expect(isValidAddress('ETH', a, 'live')).toBe(true);
      expect(isValidAddress('ETH', a.toLowerCase(), 'paper')).toBe(true);
    }
    expect(isValidAddress('ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'live')).toBe(false);
    expect(isValidAddress('ETH', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae', 'live')).toBe(false);
    expect(isValidAddress('ETH', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'live')).toBe(false);
  });
});
