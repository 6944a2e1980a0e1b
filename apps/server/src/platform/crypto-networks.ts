// The blockchain networks the cashier accepts crypto on, and how an address of each is checked.
// Shared by crypto deposits (addresses derived per customer) and crypto withdrawals (the address book).
// Paper mode uses each chain's test network (tb1… for Bitcoin, Sepolia for the EVM chain), so a paper
// address can never receive or send real coins by mistake.
// Must not: hold a private key, or reach a chain (the chain ports do that).

import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, bech32m } from '@scure/base';

export type Mode = 'paper' | 'live';
export type NetworkCode = 'BTC' | 'ETH';

export type CryptoNetwork = {
  code: NetworkCode;
  /** Shown to the customer: which network to send on. */
  name: { paper: string; live: string };
  /** Assets this network carries (ETH natively, USDT as an ERC-20 token). */
  assets: readonly string[];
  /** A deposit is credited after this many confirmations. */
  confirmations: number;
  addressKind: 'bech32' | 'evm';
};

export const CRYPTO_NETWORKS: readonly CryptoNetwork[] = [
  {
    code: 'BTC',
    name: { paper: 'Bitcoin testnet', live: 'Bitcoin' },
    assets: ['BTC'],
    confirmations: 2,
    addressKind: 'bech32',
  },
  {
    code: 'ETH',
    name: { paper: 'Ethereum Sepolia (ERC-20)', live: 'Ethereum (ERC-20)' },
    assets: ['ETH', 'USDT'],
    confirmations: 12,
    addressKind: 'evm',
  },
];

export function networkOf(code: string): CryptoNetwork | undefined {
  return CRYPTO_NETWORKS.find((n) => n.code === code);
}

/** The networks an asset can be deposited or withdrawn on. */
export function networksFor(asset: string): CryptoNetwork[] {
  return CRYPTO_NETWORKS.filter((n) => n.assets.includes(asset));
}

/** Bech32 human-readable part of Bitcoin segwit addresses in each mode. */
export function bitcoinHrp(mode: Mode): 'tb' | 'bc' {
  return mode === 'paper' ? 'tb' : 'bc';
}

/** Whether `address` is a well-formed address of `network` in `mode` (checksums included). */
export function isValidAddress(network: NetworkCode, address: string, mode: Mode): boolean {
  if (typeof address !== 'string' || address.length > 100) return false;
  return network === 'BTC' ? isSegwitAddress(address, bitcoinHrp(mode)) : isEvmAddress(address);
}

/** BIP-173/BIP-350: witness v0 (20- or 32-byte program, bech32) or v1+ (bech32m), lower or upper case only. */
function isSegwitAddress(address: string, hrp: string): boolean {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false;
  const lower = address.toLowerCase();
  if (!lower.startsWith(`${hrp}1`)) return false;
  for (const codec of [bech32, bech32m]) {
    const decoded = codec.decodeUnsafe(lower);
    if (!decoded || decoded.prefix !== hrp || decoded.words.length === 0) continue;
    const version = decoded.words[0] as number;
    if (version > 16) return false;
    if ((version === 0) !== (codec === bech32)) continue;
    const program = codec.fromWordsUnsafe(decoded.words.slice(1));
    if (!program || program.length < 2 || program.length > 40) return false;
    if (version === 0 && program.length !== 20 && program.length !== 32) return false;
    return true;
  }
  return false;
}

/** 0x + 40 hex digits; a mixed-case address must carry a correct EIP-55 checksum. */
function isEvmAddress(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return toChecksumAddress(address) === address;
}

/** EIP-55 mixed-case checksum form of an EVM address. */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? (hex[i] as string).toUpperCase() : (hex[i] as string);
  }
  return out;
}
