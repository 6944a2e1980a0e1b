// Deployment settings of crypto deposits, read once from the environment (loadConfig calls this):
// each network's extended public key, each asset's minimum, which are closed, and paper mode's
// sandbox chain timing. Paper mode ships the test-network xpubs below; live mode has none by default,
// so a live network without CRYPTO_XPUB_<NETWORK> takes no deposits.

import { CRYPTO_NETWORKS, type Mode, type NetworkCode } from '../../platform/crypto-networks.ts';
import { parseExtendedPublicKey } from './derivation.ts';

/**
 * Paper mode's extended public keys (docs/decisions/0019). Generated once by a throwaway script from
 * random seeds that were not kept: their private keys exist nowhere, so nothing sent to these
 * addresses, on any network, can ever be spent. BTC: a tpub (testnet, m/84'/1'/0'); ETH: m/44'/60'/0'.
 */
export const PAPER_XPUBS: Record<NetworkCode, string> = {
  BTC: 'tpubDD4mp8BDnoqBasftX69EJkduB1rCqkas8bwpYUTi2EwumndeqiJ9Jmko1S5BqMrwkyan6AfX8qAbHSGdXD6113fvsjDDWRcaHFEFhNfMZvs',
  ETH: 'xpub6BtLXipYCVkb2wP1kuqtFxsArUTyuf8ku1e2ei73WWeSyCbMujmqY2oQDRnEKcZatytLu7qoRxjoKof9XxsH3UeEuQXR99Ea1fYrCc3Ke9Y',
};

export type CryptoDepositSettings = {
  /** Per network; null: no key configured, so the network takes no deposits. */
  xpubs: Record<NetworkCode, string | null>;
  /** Smallest amount credited per asset (decimal strings); less is recorded as below the minimum. */
  minimums: Record<string, string>;
  /** Assets ("USDT") or networks ("ETH") whose deposits are closed; "ALL" closes every one. */
  closed: readonly string[];
  /** Sandbox chain: one block every this many ms per network (paper mode). */
  blockMs: Record<NetworkCode, number>;
  /** The watcher scans the chains this often (ms); 0: only on request (tests). */
  scanEveryMs: number;
  /** Live mode's chain endpoints; a network without one takes no deposits. */
  live: { btcEsploraUrl: string | null; ethRpcUrl: string | null; usdtContract: string | null };
};

const DEFAULT_MINIMUMS = { BTC: '0.0001', ETH: '0.005', USDT: '10' };
const DEFAULT_BLOCK_MS: Record<NetworkCode, number> = { BTC: 60_000, ETH: 12_000 };

/** "BTC:0.001,USDT:5" → entries over the defaults; a malformed entry stops start-up. */
function entries<T>(name: string, raw: string | undefined, parse: (v: string) => T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const part of (raw ?? '').split(',').filter((p) => p.trim())) {
    const [key, value] = part.split(':').map((p) => p.trim());
    if (!key || !value) throw new Error(`${name}: bad entry "${part}"`);
    out[key.toUpperCase()] = parse(value);
  }
  return out;
}

export function loadCryptoDepositSettings(env: Record<string, string | undefined>, mode: Mode): CryptoDepositSettings {
  const xpubs = {} as Record<NetworkCode, string | null>;
  for (const network of CRYPTO_NETWORKS) {
    const given = env[`CRYPTO_XPUB_${network.code}`]?.trim();
    const xpub = given || (mode === 'paper' ? PAPER_XPUBS[network.code] : null);
    // A wrong key (or a private one) stops start-up rather than handing out addresses nobody controls.
    if (xpub) parseExtendedPublicKey(xpub);
    xpubs[network.code] = xpub;
  }
  const minimums = {
    ...DEFAULT_MINIMUMS,
    ...entries('CRYPTO_DEPOSIT_MIN', env.CRYPTO_DEPOSIT_MIN, (v) => {
      if (!/^\d+(\.\d+)?$/.test(v)) throw new Error(`CRYPTO_DEPOSIT_MIN: not a decimal amount: ${v}`);
      return v;
    }),
  };
  const blockMs = {
    ...DEFAULT_BLOCK_MS,
    ...entries('CRYPTO_BLOCK_MS', env.CRYPTO_BLOCK_MS, (v) => {
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < 1) throw new Error(`CRYPTO_BLOCK_MS: not a positive whole number: ${v}`);
      return n;
    }),
  } as Record<NetworkCode, number>;
  const closed = (env.CRYPTO_DEPOSITS_CLOSED ?? '')
    .split(',')
    .map((p) => p.trim().toUpperCase())
    .filter(Boolean);
  const scanEveryMs = Number(env.CRYPTO_SCAN_EVERY_MS ?? 5_000);
  if (!Number.isSafeInteger(scanEveryMs) || scanEveryMs < 0)
    throw new Error(`CRYPTO_SCAN_EVERY_MS must be a whole number of ms, not "${env.CRYPTO_SCAN_EVERY_MS}"`);
  const live = {
    btcEsploraUrl: env.CRYPTO_BTC_ESPLORA_URL?.trim() || null,
    ethRpcUrl: env.CRYPTO_ETH_RPC_URL?.trim() || null,
    usdtContract: env.CRYPTO_USDT_CONTRACT?.trim() || null,
  };
  return { xpubs, minimums, closed, blockMs, scanEveryMs, live };
}
