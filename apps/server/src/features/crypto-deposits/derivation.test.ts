// Proves deposit-address derivation against published vectors: BIP-32's test vectors (children derived
// from an xpub alone), BIP-173's P2WPKH example and the EVM address of the generator point's key
// (private key 1), and that a private extended key is refused.

import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { isValidAddress } from '../../platform/crypto-networks.ts';
import {
  childPublicKey,
  deriveDepositAddress,
  evmAddress,
  MAX_DERIVATION_INDEX,
  p2wpkhAddress,
  parseExtendedPublicKey,
} from './derivation.ts';
import { PAPER_XPUBS } from './settings.ts';

// BIP-32 test vector 1.
const V1_M_0H =
  'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
const V1_M_0H_1 =
  'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ';
const V1_M_0H_1_2H_2 =
  'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV';
const V1_M_0H_1_2H_2_1000000000 =
  'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy';
// BIP-32 test vector 2: the master and m/0.
const V2_M =
  'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB';
const V2_M_0 =
  'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH';
const V1_M_XPRV =
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';

// The generator point G: the public key of private key 1.
const G_COMPRESSED = Uint8Array.from(
  Buffer.from('0279BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798', 'hex'),
);

describe('derivation from an extended public key', () => {
  it('derives BIP-32 vector 1 and 2 public children from the xpub alone', () => {
    expect(parseExtendedPublicKey(V1_M_0H).deriveChild(1).publicExtendedKey).toBe(V1_M_0H_1);
    expect(parseExtendedPublicKey(V1_M_0H_1_2H_2).deriveChild(1_000_000_000).publicExtendedKey).toBe(
      V1_M_0H_1_2H_2_1000000000,
    );
    expect(parseExtendedPublicKey(V2_M).deriveChild(0).publicExtendedKey).toBe(V2_M_0);
  });

  it('takes the key at m/0/<index> (the external chain) below the configured xpub', () => {
    const viaVector = HDKey.fromExtendedKey(V2_M_0).deriveChild(7).publicKey;
    expect(childPublicKey(parseExtendedPublicKey(V2_M), 7)).toEqual(viaVector);
    expect(() => childPublicKey(parseExtendedPublicKey(V2_M), MAX_DERIVATION_INDEX + 1)).toThrow(/out of range/);
    expect(() => childPublicKey(parseExtendedPublicKey(V2_M), -1)).toThrow(/out of range/);
  });

  it('refuses a private extended key', () => {
    expect(() => parseExtendedPublicKey(V1_M_XPRV)).toThrow(/private/);
  });
});

describe('addresses of a public key', () => {
  it('BTC P2WPKH: the BIP-173 example, on mainnet (live) and testnet (paper)', () => {
    expect(p2wpkhAddress(G_COMPRESSED, 'live')).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    expect(p2wpkhAddress(G_COMPRESSED, 'paper')).toBe('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
  });

  it('EVM: private key 1 has the well-known address, EIP-55 checksummed', () => {
    expect(evmAddress(G_COMPRESSED)).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
  });

  it('the paper xpubs give distinct, valid test-network addresses per index', () => {
    const seen = new Set<string>();
    for (const network of ['BTC', 'ETH'] as const) {
      const xpub = parseExtendedPublicKey(PAPER_XPUBS[network]);
      for (const index of [0, 1, 2, 1000]) {
        const address = deriveDepositAddress(network, xpub, index, 'paper');
        expect(isValidAddress(network, address, 'paper'), address).toBe(true);
        if (network === 'BTC') expect(address.startsWith('tb1q')).toBe(true);
        seen.add(address);
      }
    }
    expect(seen.size).toBe(8);
  });
});
