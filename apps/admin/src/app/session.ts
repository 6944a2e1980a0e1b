// Owns the stored staff token. The token lives in localStorage under `adminToken` so a reload keeps
// the session; any change (sign-in, sign-out, a -1000 answer) is broadcast so the router can react.

export const TOKEN_STORAGE_KEY = 'adminToken';

type Listener = () => void;
const listeners = new Set<Listener>();

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // storage blocked: the session lasts as long as the page
  }
}

let memoryToken: string | null = storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
/** Why the last session ended: the server refused the token, or the staff member signed out. */
export type SessionEnd = 'server' | 'user' | null;
let lastEnd: SessionEnd = null;

export function getToken(): string | null {
  return memoryToken;
}

/** `end` says why a session ends (null for a new token): a -1000 answer or an explicit sign-out. */
export function setToken(token: string | null, end: SessionEnd = null): void {
  if (token === memoryToken) return;
  memoryToken = token;
  lastEnd = token === null ? end : null;
  if (token === null) storage()?.removeItem(TOKEN_STORAGE_KEY);
  else storage()?.setItem(TOKEN_STORAGE_KEY, token);
  for (const listener of listeners) listener();
}

export function subscribeToken(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function lastSessionEnd(): SessionEnd {
  return lastEnd;
}

/** True once after the server ended the session, so the sign-in page can say why. */
export function consumeSessionEndedByServer(): boolean {
  const was = lastEnd === 'server';
  if (was) lastEnd = null;
  return was;
}
