// Remembers, for a few minutes, that a user's 6-digit PIN was verified: argon2id costs tens of
// milliseconds of CPU by design, which is right for a guess and wrong for every order of an active
// trader. After one slow verification the PIN is kept only as a keyed digest: SHA-256 over a key that
// lives in this process's memory (never stored), the stored hash (changing the PIN forgets it) and the
// PIN, in one call. A later order with the same PIN is checked against that in microseconds. The digest
// is never shown to anyone, only compared here, so an HMAC (an object per order, ~1.4 µs more) would
// add nothing. A different PIN always goes through argon2 and the failure throttle.

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
