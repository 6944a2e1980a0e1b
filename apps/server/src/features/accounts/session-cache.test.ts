// The in-memory session cache: what it answers, when it forgets, and whom it tells.

import { expect, it } from 'vitest';
import type { UserRow } from './repo.ts';
import { type CachedSession, SessionCache } from './session-cache.ts';

const entry = (userId: number, at: number, expiresAt = at + 60_000): CachedSession => ({
  user: { id: userId } as UserRow,
  sessionId: `s${userId}`,
  expiresAt,
  lastSeenAt: at,
  cachedAt: at,
});

it('answers a stored session until it expires, ages out, or its user changes', () => {
  const cache = new SessionCache();
  cache.set('a', entry(1, 1_000), cache.generation);
  cache.set('b', entry(2, 1_000, 5_000), cache.generation);
  expect(cache.get('a', 2_000)?.sessionId).toBe('s1');
  expect(cache.get('b', 5_000)).toBeUndefined(); // the session expired
  expect(cache.get('a', 11_001)).toBeUndefined(); // older than the safety net
  cache.set('a', entry(1, 20_000), cache.generation);
  cache.forgetUser(1);
  expect(cache.get('a', 20_001)).toBeUndefined();
});

it('does not store a read that raced with a change', () => {
  const cache = new SessionCache();
  const before = cache.generation;
  cache.forgetUser(7); // committed while the lookup was reading
  cache.set('t', entry(7, 1_000), before);
  expect(cache.get('t', 1_001)).toBeUndefined();
  cache.set('t', entry(7, 1_000), cache.generation);
  expect(cache.get('t', 1_001)?.user.id).toBe(7);
});

it('tells its listeners which user changed, after forgetting them, until they stop listening', () => {
  const cache = new SessionCache();
  cache.set('a', entry(3, 1_000), cache.generation);
  const heard: [number, boolean][] = [];
  const stop = cache.onForget((userId) => heard.push([userId, cache.get('a', 1_001) === undefined]));
  cache.forgetUser(3);
  stop();
  cache.forgetUser(4);
  expect(heard).toEqual([[3, true]]);
});
