// Calls sent by the boot script (src/boot.ts) before the app's code has loaded, handed to the request
// wrapper when the app makes the same call (same GET URL and headers, hence the same language and
// token) within `earlyMaxAgeMs`. Each answer is used once; every other call goes to the network.
// No dependencies beyond the request description, so that the boot script stays a few KB.
import type { ApiCall } from '../features/markets/home-requests.ts';
import { getStoredLanguage } from '../i18n/languages.ts';
import { describeRequest } from './request.ts';
import { readStorage, storageKeys } from './storage-keys.ts';

export const earlyMaxAgeMs = 10_000;

const sent = new Map<string, { at: number; response: Promise<Response> }>();

function keyOf(url: string, init: RequestInit | undefined): string | null {
  if ((init?.method ?? 'GET') !== 'GET') return null;
  const headers = Object.entries((init?.headers ?? {}) as Record<string, string>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return JSON.stringify([url, headers]);
}

/** Sends a GET call now, exactly as the request wrapper would, for the app to pick up. */
export function sendEarly(call: ApiCall): Promise<Response> {
  const { url, init } = describeRequest(
    call.path,
    { method: 'GET', data: call.data },
    { getToken: () => readStorage(storageKeys.token) || null, getLanguage: getStoredLanguage },
  );
  const response = fetch(url, init);
  response.catch(() => undefined); // a failure is the app's to see, if it asks
  const key = keyOf(url, init);
  if (key) sent.set(key, { at: performance.now(), response });
  return response;
}

/** The early answer to this call (once), or null: none was sent, or it is too old to use. */
export function takeEarly(url: string, init?: RequestInit): Promise<Response> | null {
  const key = keyOf(url, init);
  const found = key ? sent.get(key) : undefined;
  if (!key || !found) return null;
  sent.delete(key);
  if (performance.now() - found.at > earlyMaxAgeMs) return null;
  const signal = init?.signal;
  if (!signal) return found.response;
  return new Promise<Response>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    found.response.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
