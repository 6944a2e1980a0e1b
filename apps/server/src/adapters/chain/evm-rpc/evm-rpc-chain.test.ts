// The JSON-RPC adapter's reading of recorded responses (no network): eth_blockNumber and eth_getLogs
// of an ERC-20 Transfer to our address in the documented shape (recorded/get-logs.json: one transfer
// of 250 USDT, and one log removed by a reorganisation, which must be ignored). Checks the request too.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { confirmationsAt, type Fetch } from '../chain-port.ts';
import { ERC20_TRANSFER_TOPIC, EvmRpcChain } from './evm-rpc-chain.ts';

const URL_RPC = 'https://rpc.example/sepolia';
const USDT = '0xaA8E23Fb1079EA71e0a56F48a2aA51851D8433D0';
const OURS = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf';
const logs = readFileSync(new URL('./recorded/get-logs.json', import.meta.url), 'utf8');

describe('EVM JSON-RPC chain adapter (ERC-20 Transfer logs)', () => {
  it('asks for Transfer logs of the token to our addresses and reads amount, log index and block', async () => {
    const requests: { method: string; params: unknown[] }[] = [];
    const fetchRecorded: Fetch = async (url, init) => {
      expect(url).toBe(URL_RPC);
      const request = JSON.parse(init?.body ?? '{}');
      requests.push(request);
      const body =
        request.method === 'eth_blockNumber'
          ? JSON.stringify({ jsonrpc: '2.0', id: request.id, result: '0x6c81f8' })
          : logs;
      return { ok: true, status: 200, text: async () => body };
    };
    const chain = new EvmRpcChain({
      url: URL_RPC,
      fetch: fetchRecorded,
      tokens: [{ asset: 'USDT', contract: USDT }],
      lookbackBlocks: 100,
    });
    expect(chain.assets).toEqual(['USDT']);
    const tip = await chain.tipHeight();
    expect(tip).toBe(0x6c81f8);
    const transfers = await chain.incoming([OURS]);
    expect(transfers).toEqual([
      {
        asset: 'USDT',
        txid: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
        outputIndex: 0x2a,
        address: OURS,
        amountMinor: 250_000_000n,
        blockHeight: 0x6c81f0,
      },
    ]);
    expect(confirmationsAt(transfers[0]!, tip)).toBe(9);
    const getLogs = requests.find((r) => r.method === 'eth_getLogs');
    expect(getLogs?.params).toEqual([
      {
        fromBlock: `0x${(0x6c81f8 - 100).toString(16)}`,
        toBlock: 'latest',
        address: USDT,
        topics: [ERC20_TRANSFER_TOPIC, null, [`0x${'0'.repeat(24)}7e5f4552091a69125d5dfcb7b8c2659029395bdf`]],
      },
    ]);
  });

  it('fails loudly on a JSON-RPC error', async () => {
    const failing: Fetch = async () => ({
      ok: true,
      status: 200,
      text: async () =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32005, message: 'query returned more than 10000 results' },
        }),
    });
    const chain = new EvmRpcChain({ url: URL_RPC, fetch: failing, tokens: [{ asset: 'USDT', contract: USDT }] });
    await expect(chain.tipHeight()).rejects.toThrow(/more than 10000/);
  });
});
