// Signed-in requests look up their session and user here before asking the database. An entry is
// kept for at most MAX_AGE_MS and is dropped as soon as its user or any of its sessions changes:
// every change to a user row or to a session's revocation calls `forgetUser` once it has committed
// (Accounts, Staff); new sessions and last-seen touches need not. A lookup that was reading the database while such a change happened does not store what it
// read (the generation check), so a stale row cannot outlive the change that made it stale.
// Why: authentication was one or two queries on every request, the largest single cost of an order on
// PostgreSQL (bench/HISTORY.md, HTTP).

import type { UserRow } from './repo.ts';

/** A safety net for a writer that forgets to call forgetUser; normal changes are seen at once. */
const MAX_AGE_MS = 10_000;
const MAX_ENTRIES = 100_000;

export type CachedSession = {
  user: UserRow;
  sessionId: string;
  expiresAt: number;
  lastSeenAt: number;
  cachedAt: number;
};

export class SessionCache {
  readonly #byToken = new Map<string, CachedSession>();
  readonly #forgetListeners = new Set<(userId: number) => void>();
  #generation = 0;

  /** The cached session for a token hash, if fresh and not expired at `now`. */
  get(tokenHash: string, now: number): CachedSession | undefined {
    const entry = this.#byToken.get(tokenHash);
    if (!entry) return undefined;
    if (now - entry.cachedAt > MAX_AGE_MS || now >= entry.expiresAt || now < entry.cachedAt) {
      this.#byToken.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** Taken before reading the database; `set` stores the read only if nothing changed meanwhile. */
  get generation(): number {
    return this.#generation;
  }

  set(tokenHash: string, entry: CachedSession, readAtGeneration: number): void {
    if (readAtGeneration !== this.#generation) return;
    if (this.#byToken.size >= MAX_ENTRIES) this.#byToken.clear();
    this.#byToken.set(tokenHash, entry);
  }

  /** After a committed change to a user or their sessions. */
  forgetUser(userId: number): void {
    this.#generation++;
    for (const [token, entry] of this.#byToken) if (entry.user.id === userId) this.#byToken.delete(token);
    for (const listener of this.#forgetListeners) listener(userId);
  }

  /**
   * Tells what outlives a request (the stream's account channels) that a user or their sessions
   * changed, so it checks them again instead of trusting what it checked when it began.
   */
  onForget(listener: (userId: number) => void): () => void {
    this.#forgetListeners.add(listener);
    return () => this.#forgetListeners.delete(listener);
  }
}
