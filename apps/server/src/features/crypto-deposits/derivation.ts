// Deposit addresses from an extended PUBLIC key (BIP-32): the server derives m/0/<index> of the
// network's xpub and turns the child public key into an address. It never sees a private key, so a
// stolen server cannot spend what customers deposit.
// BTC: P2WPKH, bech32(hash160(compressed key)) (BIP-173); EVM: the last 20 bytes of
// keccak256(uncompressed key without its 0x04 prefix), EIP-55 checksummed.

import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { bech32 } from '@scure/base';
import { HDKey, type Versions } from '@scure/bip32';
import { bitcoinHrp, type Mode, type NetworkCode, toChecksumAddress } from '../../platform/crypto-networks.ts';

/** BIP-32 version bytes: xpub (mainnet) and tpub (testnet) serialisations. */
const MAINNET: Versions = { private: 0x0488ade4, public: 0x0488b21e };
const TESTNET: Versions = { private: 0x04358394, public: 0x043587cf };

/** The largest non-hardened child index (BIP-32): indexes are allocated from 0 up to it. */
export const MAX_DERIVATION_INDEX = 0x7fffffff;

/** Reads an xpub or tpub; refuses a private extended key outright (the server must never hold one). */
export function parseExtendedPublicKey(extendedKey: string): HDKey {
  const key = extendedKey.trim();
  if (/^[xt]prv/.test(key)) throw new Error('a private extended key (xprv/tprv) was given: configure the xpub only');
  const versions = key.startsWith('tpub') ? TESTNET : MAINNET;
  const hd = HDKey.fromExtendedKey(key, versions);
  if (hd.privateKey) throw new Error('the extended key holds a private key: configure the xpub only');
  return hd;
}

/** The compressed public key (33 bytes) at m/0/<index> below the extended key. */
export function childPublicKey(xpub: HDKey, index: number): Uint8Array {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_DERIVATION_INDEX)
    throw new Error(`derivation index out of range: ${index}`);
  const key = xpub.deriveChild(0).deriveChild(index).publicKey;
  if (!key) throw new Error('derivation gave no public key');
  return key;
}

/** BIP-173 P2WPKH address of a compressed public key: witness v0 over hash160 (ripemd160 ∘ sha256). */
export function p2wpkhAddress(compressedPublicKey: Uint8Array, mode: Mode): string {
  const program = ripemd160(sha256(compressedPublicKey));
  return bech32.encode(bitcoinHrp(mode), [0, ...bech32.toWords(program)]);
}

/** EVM address of a public key (compressed or not), EIP-55 checksummed. */
export function evmAddress(publicKey: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  const hash = keccak_256(uncompressed.subarray(1));
  return toChecksumAddress(`0x${bytesToHex(hash.subarray(12))}`);
}

/** The deposit address at `index` of a network's xpub. */
export function deriveDepositAddress(network: NetworkCode, xpub: HDKey, index: number, mode: Mode): string {
  const key = childPublicKey(xpub, index);
  return network === 'BTC' ? p2wpkhAddress(key, mode) : evmAddress(key);
}
