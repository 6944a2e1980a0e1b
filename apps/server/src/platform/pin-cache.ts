// Remembers, for a few minutes, that a user's 6-digit PIN was verified: argon2id costs tens of
// milliseconds of CPU by design, which is right for a guess and wrong for every order of an active
// trader. After one slow verification the PIN is kept only as an HMAC under a key that lives in this
// process's memory (never stored), bound to the stored hash (changing the PIN forgets it); a later
// order with the same PIN is checked against that in microseconds. The keyed digest is SHA-256 over
// key, stored hash and PIN in one call (no Hmac object per order: ~3 µs less on every order); it is
// never shown to anyone, only compared here, so HMAC's protection against length extension buys nothing. A different PIN always goes
// through argon2 and the failure throttle.

import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 100_000;

export class PinCache {
  readonly #key = randomBytes(32).toString('hex');
  readonly #entries = new Map<string, { digest: Buffer; until: number }>();

  #digest(storedHash: string, pin: string): Buffer {
    return hash('sha256', `${this.#key}\0${storedHash}\0${pin}`, 'buffer');
  }

  /** True when this PIN was verified against this stored hash within the last minutes. */
  has(subject: string, storedHash: string, pin: string, now: number): boolean {
    const entry = this.#entries.get(subject);
    if (!entry) return false;
    if (entry.until <= now) {
      this.#entries.delete(subject);
      return false;
    }
    return timingSafeEqual(entry.digest, this.#digest(storedHash, pin));
  }

  remember(subject: string, storedHash: string, pin: string, now: number): void {
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.delete(subject);
    this.#entries.set(subject, { digest: this.#digest(storedHash, pin), until: now + TTL_MS });
  }

  forget(subject: string): void {
    this.#entries.delete(subject);
  }
}
