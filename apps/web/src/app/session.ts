// The signed-in session kept in localStorage (SPEC §3: userToken, userInfo). Owns: reading, writing
// and clearing it, and telling React when it changes. Must hold: the token and the user are always
// cleared together.

import type { UserView } from '@bourse/contract';
import { useSyncExternalStore } from 'react';
import { readStorage, storageKeys } from './storage-keys.ts';

export { storageKeys };

export interface Session {
  token: string | null;
  user: UserView | null;
}

const listeners = new Set<() => void>();
let cached: Session | null = null;

function read(): Session {
  const token = readStorage(storageKeys.token);
  let user: UserView | null = null;
  const rawUser = readStorage(storageKeys.userInfo);
  if (rawUser) {
    try {
      user = JSON.parse(rawUser) as UserView;
    } catch {
      user = null;
    }
  }
  return { token: token || null, user };
}

function emit(): void {
  cached = read();
  for (const listener of listeners) listener();
}

export function getSession(): Session {
  cached ??= read();
  return cached;
}

export function getToken(): string | null {
  return getSession().token;
}

export function saveSession(token: string, user: UserView | null): void {
  localStorage.setItem(storageKeys.token, token);
  if (user) localStorage.setItem(storageKeys.userInfo, JSON.stringify(user));
  emit();
}

export function saveUser(user: UserView): void {
  localStorage.setItem(storageKeys.userInfo, JSON.stringify(user));
  emit();
}

export function clearSession(): void {
  try {
    localStorage.removeItem(storageKeys.token);
    localStorage.removeItem(storageKeys.userInfo);
  } catch {
    // storage unavailable: nothing to clear
  }
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKeys.token || event.key === storageKeys.userInfo || event.key === null) emit();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): Session {
  return useSyncExternalStore(subscribe, getSession, getSession);
}
