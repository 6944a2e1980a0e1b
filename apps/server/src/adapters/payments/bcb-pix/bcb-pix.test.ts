// The live PIX adapter against recorded responses of BCB's standard API (no network): the request it
// sends for a charge, how it reads the answer, that it refuses an answer for another charge, and that a
// recorded webhook body parses and its signature checks in constant time.

import { readFileSync } from 'node:fs';
import { parsePix } from 'pix-utils';
import { computeCRC } from 'pix-utils/dist/main/crc.js';
import { describe, expect, it } from 'vitest';
import { parsePixNotification, signPixBody, verifyPixSignature } from '../pix-port.ts';
import { BcbPix } from './bcb-pix.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const TXID = '7978c0c97ea847e78e8849634473c1f1';

function recorded(status: number, body: string) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

describe('BCB PIX adapter (recorded responses)', () => {
  it('creates a charge with PUT /v2/cob/{txid} and reads its location and copy-paste code', async () => {
    const { calls, fetch } = recorded(201, fixture('cob-put-201.json'));
    const pix = new BcbPix({
      baseUrl: 'https://psp.example/api',
      pixKey: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
      accessToken: async () => 'token-1',
      fetch,
    });
    const charge = await pix.createCharge({
      txid: TXID,
      amount: '123.45',
      expiresInSec: 1800,
      description: 'Bourse deposit 42',
    });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    if (!call) throw new Error('no request sent');
    expect(call.url).toBe(`https://psp.example/api/v2/cob/${TXID}`);
    expect(call.init.method).toBe('PUT');
    expect((call.init.headers as Record<string, string>).authorization).toBe('Bearer token-1');
    expect(JSON.parse(String(call.init.body))).toEqual({
      calendario: { expiracao: 1800 },
      valor: { original: '123.45' },
      chave: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
      solicitacaoPagador: 'Bourse deposit 42',
    });
    expect(charge.location).toBe('pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25');
    expect(charge.brCode).toMatch(/^000201/);
    // The recorded copy-paste code is a dynamic BR Code pointing at the same location.
    const parsed = parsePix(charge.brCode ?? '');
    expect(parsed).toMatchObject({ type: 'DYNAMIC', url: charge.location });
  });

  it('refuses an answer for another amount or an inactive charge, and a refusal status', async () => {
    const body = JSON.parse(fixture('cob-put-201.json'));
    for (const changed of [
      { ...body, valor: { original: '1.00' } },
      { ...body, status: 'REMOVIDA_PELO_PSP' },
      { ...body, txid: 'another0000000000000000000000' },
    ]) {
      const { fetch } = recorded(201, JSON.stringify(changed));
      const pix = new BcbPix({ baseUrl: 'https://psp.example/api', pixKey: 'k', accessToken: async () => 't', fetch });
      await expect(
        pix.createCharge({ txid: TXID, amount: '123.45', expiresInSec: 1800, description: 'x' }),
      ).rejects.toThrow();
    }
    const { fetch } = recorded(400, '{"title":"Cobrança inválida."}');
    const pix = new BcbPix({ baseUrl: 'https://psp.example/api', pixKey: 'k', accessToken: async () => 't', fetch });
    await expect(
      pix.createCharge({ txid: TXID, amount: '123.45', expiresInSec: 1800, description: 'x' }),
    ).rejects.toThrow(/400/);
  });

  it('uses a BR Code library whose CRC agrees with DOMAIN.md’s vector (CRC-16/CCITT-FALSE)', () => {
    // DOMAIN.md's payload checks its CRC only: its field 62 declares 8 characters for a 7-character value,
    // so it is not a well-formed BR Code and the vector is tested on the CRC alone.
    const payload =
      '00020126360014BR.GOV.BCB.PIX0114+5511943214321520400005303986540566.665802BR5907EMPRESA6008BRASILIA62080503***6304';
    expect(computeCRC(payload)).toBe('170E');
    // The codes we make are well formed: their CRC is what parsePix recomputes.
    const made = JSON.parse(fixture('cob-put-201.json')).pixCopiaECola as string;
    expect(computeCRC(made.slice(0, -4))).toBe(made.slice(-4));
  });

  it('reads a recorded notification and checks its signature', () => {
    const raw = fixture('webhook-pix.json');
    expect(parsePixNotification(JSON.parse(raw))).toEqual([
      {
        endToEndId: 'E12345678202611271801abcdefghijk',
        txid: TXID,
        amount: '123.45',
        paidAt: '2026-11-27T18:03:44.000Z',
      },
    ]);
    const secret = 'a'.repeat(64);
    const signature = signPixBody(raw, secret);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyPixSignature(raw, signature, secret)).toBe(true);
    expect(verifyPixSignature(`${raw} `, signature, secret)).toBe(false);
    expect(verifyPixSignature(raw, signature, 'b'.repeat(64))).toBe(false);
    expect(verifyPixSignature(raw, undefined, secret)).toBe(false);
    expect(verifyPixSignature(raw, signature, '')).toBe(false);
    expect(parsePixNotification({ pix: [{ txid: TXID, valor: '1' }] })).toBeNull();
    expect(parsePixNotification({ pix: [] })).toBeNull();
  });
});
