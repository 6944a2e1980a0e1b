// The request wrapper of SPEC §7–8. Owns: how every API call is sent (form-encoded, token, lang and
// XHR headers, 60 s time-out) and the reaction to response codes (0 ok, -1000 session invalid,
// -1001 toast the server's message). Must not import UI code: its effects come in as `deps`, so the
// code handling can be tested with a fake fetch in node.

import type { Envelope, ErrorCode, ErrorEnvelope } from '@bourse/contract';

export const apiBasePath = '/ipor-api';
export const requestTimeoutMs = 60_000;
export const errorToastMs = 1_000;

export const responseCodes = {
  ok: 0,
  sessionInvalid: -1000,
  rejected: -1001,
} as const;

/**
 * Every response body (the contract's SPEC §8 envelope): `{code, msg, data}`, plus on a rejection its
 * catalogue code in `error` and per-field translated messages in `fields`.
 */
export type ApiEnvelope<T = unknown> = Envelope<T>;

/** A response whose code was not 0. Carries the envelope so forms can show field messages. */
export class ApiError extends Error {
  readonly code: number;
  readonly error: ErrorCode | undefined;
  readonly fields: Record<string, string>;
  readonly envelope: ErrorEnvelope;

  constructor(envelope: ErrorEnvelope) {
    super(envelope.msg || envelope.error || `code ${envelope.code}`);
    this.name = 'ApiError';
    this.code = envelope.code;
    this.error = envelope.error;
    this.fields = envelope.fields ?? {};
    this.envelope = envelope;
  }
}

/** The request never got a usable answer (offline, time-out, a proxy's HTML error page). */
export class NetworkError extends Error {
  readonly isTimeout: boolean;
  constructor(message: string, isTimeout: boolean) {
    super(message);
    this.name = 'NetworkError';
    this.isTimeout = isTimeout;
  }
}

export type RequestValue = string | number | boolean | null | undefined;
export type RequestData = Record<string, RequestValue>;

export interface RequestOptions {
  method?: 'GET' | 'POST';
  data?: RequestData;
  /** Sent as `Idempotency-Key` on money-moving calls so a retry after a network failure is safe. */
  idempotencyKey?: string;
  /** Do not toast a -1001 message (the caller shows it, e.g. under form fields). */
  isSilent?: boolean;
  /**
   * A background read (queries, polling): no toast at all, neither for -1001 nor for a network
   * failure; the screen shows its own error state with "try again".
   */
  isBackground?: boolean;
  /** Show the loading indicator while the call runs. */
  hasLoading?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface RequestDeps {
  fetch: typeof fetch;
  baseUrl?: string;
  getToken(): string | null;
  getLanguage(): string;
  /** Clears userToken and userInfo and opens /pages/account/login. */
  onSessionInvalid(): void;
  showToast(message: string, durationMs: number): void;
  showLoading(): void;
  hideLoading(): void;
  /** The translated "network error" text. */
  networkErrorMessage(): string;
}

function encodeForm(data: RequestData | undefined): URLSearchParams {
  const form = new URLSearchParams();
  if (!data) return form;
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    form.append(key, String(value));
  }
  return form;
}

function isEnvelope(body: unknown): body is ApiEnvelope {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number';
}

export type Request = <T = unknown>(path: string, options?: RequestOptions) => Promise<ApiEnvelope<T>>;

/** What a call sends: the URL and the fetch options (without the abort signal). */
export function describeRequest(
  path: string,
  options: Pick<RequestOptions, 'method' | 'data' | 'idempotencyKey'>,
  deps: Pick<RequestDeps, 'baseUrl' | 'getToken' | 'getLanguage'>,
): { url: string; init: RequestInit & { method: string; headers: Record<string, string> } } {
  const method = options.method ?? 'GET';
  const form = encodeForm(options.data);
  const query = method === 'GET' && [...form.keys()].length > 0 ? `?${form.toString()}` : '';
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    lang: deps.getLanguage(),
  };
  const token = deps.getToken();
  if (token) headers.token = token;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  if (method === 'POST') headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
  return {
    url: `${deps.baseUrl ?? apiBasePath}${path}${query}`,
    init: { method, headers, body: method === 'POST' ? form.toString() : undefined, credentials: 'same-origin' },
  };
}

/**
 * Builds the wrapper. Code 0 and -1000 resolve with the body (after -1000 has cleared the session);
 * -1001 toasts `msg` for one second without an icon and resolves with the body too; a network
 * failure hides the loading indicator, toasts the translated message and rejects with NetworkError.
 */
export function createRequest(deps: RequestDeps): Request {
  return async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<ApiEnvelope<T>> {
    const { url, init } = describeRequest(path, options, deps);

    const controller = new AbortController();
    let isTimedOut = false;
    const timer = setTimeout(() => {
      isTimedOut = true;
      controller.abort();
    }, options.timeoutMs ?? requestTimeoutMs);
    const abortFromCaller = () => controller.abort();
    options.signal?.addEventListener('abort', abortFromCaller);
    if (options.hasLoading) deps.showLoading();

    let body: unknown;
    try {
      const response = await deps.fetch(url, { ...init, signal: controller.signal });
      body = await response.json();
    } catch (cause) {
      deps.hideLoading();
      if (options.signal?.aborted) throw cause; // the caller cancelled: not a network failure
      const message = deps.networkErrorMessage();
      if (!options.isBackground) deps.showToast(message, errorToastMs);
      throw new NetworkError(message, isTimedOut);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abortFromCaller);
    }
    if (options.hasLoading) deps.hideLoading();

    if (!isEnvelope(body)) {
      const message = deps.networkErrorMessage();
      if (!options.isBackground) deps.showToast(message, errorToastMs);
      throw new NetworkError(message, false);
    }
    if (body.code === responseCodes.sessionInvalid) {
      deps.onSessionInvalid();
    } else if (body.code === responseCodes.rejected && !options.isSilent && !options.isBackground && body.msg) {
      deps.showToast(body.msg, errorToastMs);
    }
    return body as ApiEnvelope<T>;
  };
}

/** Resolves with `data` when the code is 0, otherwise rejects with ApiError (for TanStack Query). */
export async function unwrap<T>(pending: Promise<ApiEnvelope<T>>): Promise<T> {
  const envelope = await pending;
  if (envelope.code !== responseCodes.ok) throw new ApiError(envelope);
  return envelope.data;
}

/** A fresh key for a money-moving request; reuse it when retrying the same request. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    try {
      return crypto.randomUUID();
    } catch {
      // randomUUID needs a secure context; fall through to getRandomValues.
    }
  }
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
