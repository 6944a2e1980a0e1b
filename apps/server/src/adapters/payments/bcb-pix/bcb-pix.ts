// A live PIX provider speaking the Brazilian Central Bank's standard API (API Pix): a dynamic charge is
// `PUT {baseUrl}/v2/cob/{txid}` with `{calendario:{expiracao}, valor:{original}, chave, solicitacaoPagador}`,
// answered with the charge (`status: "ATIVA"`, `loc.location`, often `pixCopiaECola`). The PSP's OAuth2
// token (and its mTLS client certificate, set on the injected fetch's agent) are the deployment's
// business: this adapter receives `accessToken` and `fetch`. Tested against recorded responses only.

import type { PixCharge, PixChargeRequest, PixProvider } from '../pix-port.ts';

export type BcbPixOptions = {
  /** The PSP's API root, e.g. https://pix.example-bank.com.br/api (no trailing slash). */
  baseUrl: string;
  /** The platform's PIX key (chave) receiving the payments. */
  pixKey: string;
  accessToken: () => Promise<string>;
  fetch: typeof globalThis.fetch;
};

type CobResponse = {
  txid?: unknown;
  status?: unknown;
  location?: unknown;
  loc?: { location?: unknown };
  valor?: { original?: unknown };
  pixCopiaECola?: unknown;
};

export class BcbPix implements PixProvider {
  readonly name = 'bcb';
  readonly #options: BcbPixOptions;
  constructor(options: BcbPixOptions) {
    this.#options = options;
  }

  async createCharge(request: PixChargeRequest): Promise<PixCharge> {
    const { baseUrl, pixKey, accessToken, fetch } = this.#options;
    const response = await fetch(`${baseUrl}/v2/cob/${encodeURIComponent(request.txid)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        calendario: { expiracao: request.expiresInSec },
        valor: { original: request.amount },
        chave: pixKey,
        solicitacaoPagador: request.description.slice(0, 140),
      }),
    });
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`PIX provider answered ${response.status} to PUT /v2/cob`);
    const cob = (await response.json()) as CobResponse;
    const location = cob.loc?.location ?? cob.location;
    // The charge must be the one asked for, active, for the same amount: anything else is not trusted.
    if (cob.txid !== request.txid || cob.status !== 'ATIVA' || cob.valor?.original !== request.amount)
      throw new Error('PIX provider answered a charge that does not match the request');
    if (typeof location !== 'string' || location === '') throw new Error('PIX provider answered no location');
    return {
      txid: request.txid,
      location,
      brCode: typeof cob.pixCopiaECola === 'string' ? cob.pixCopiaECola : null,
    };
  }
}
