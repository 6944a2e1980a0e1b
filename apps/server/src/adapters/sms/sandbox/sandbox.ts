// The sandbox SMS adapter: sends nothing, keeps the last messages in memory so paper-mode users and
// tests can read the code. Bounded: it never holds more than `capacity` messages.

import type { SmsMessage, SmsPort } from '../sms-port.ts';

export class SandboxSms implements SmsPort {
  readonly name = 'sandbox';
  readonly #outbox: SmsMessage[] = [];
  readonly #capacity: number;
  constructor(capacity = 1000) {
    this.#capacity = capacity;
  }
  async send(message: SmsMessage): Promise<void> {
    this.#outbox.push(message);
    if (this.#outbox.length > this.#capacity) this.#outbox.shift();
  }
  /** The newest code sent to a phone number (E.164), if any. */
  lastCodeFor(phone: string): string | undefined {
    for (let i = this.#outbox.length - 1; i >= 0; i--) if (this.#outbox[i]?.to === phone) return this.#outbox[i]?.code;
    return undefined;
  }
}
