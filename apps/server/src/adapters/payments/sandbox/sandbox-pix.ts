// The sandbox PIX provider (paper mode): creates charges without a bank, and "pays" one when the
// customer taps "simulate payment" by delivering a signed notification in BCB's format to the webhook,
// so a sandbox payment passes the same signature check and handler as a real one. Deterministic: the
// endToEndId is derived from the txid and the time, no randomness.

import { createHash } from 'node:crypto';
import { type PixCharge, type PixChargeRequest, type PixProvider, signPixBody } from '../pix-port.ts';

/** Hands a signed notification to the webhook (app.ts wires it to POST /webhooks/pix/sandbox). */
export type DeliverNotification = (rawBody: string, signature: string) => Promise<void>;

export class SandboxPix implements PixProvider {
  readonly name = 'sandbox';
  readonly #secret: string;
  #deliver: DeliverNotification | null = null;
  constructor(secret: string) {
    this.#secret = secret;
  }

  connect(deliver: DeliverNotification): void {
    this.#deliver = deliver;
  }

  async createCharge(request: PixChargeRequest): Promise<PixCharge> {
    return { txid: request.txid, location: `pix.sandbox.invalid/v2/cob/${request.txid}`, brCode: null };
  }

  /** The notification BCB's API would send for a payment of `amount` to `txid` at `atMs`. */
  notification(txid: string, amount: string, atMs: number): string {
    const stamp = new Date(atMs).toISOString();
    const minute = stamp.slice(0, 16).replace(/[-T:]/g, '');
    // E + the payer's ISPB (8 digits; zeros: the sandbox) + yyyyMMddHHmm + 11 characters.
    const tail = createHash('sha256').update(`${txid}:${atMs}`).digest('hex').slice(0, 11);
    const endToEndId = `E00000000${minute}${tail}`;
    return JSON.stringify({ pix: [{ endToEndId, txid, valor: amount, horario: stamp, infoPagador: 'sandbox' }] });
  }

  async pay(txid: string, amount: string, atMs: number): Promise<void> {
    if (!this.#deliver) throw new Error('the sandbox PIX provider is not connected to the webhook');
    const body = this.notification(txid, amount, atMs);
    await this.#deliver(body, signPixBody(body, this.#secret));
  }
}
