// The one way the console talks to the server: every call sends the staff token and the UI
// language, and every answer is the {code, msg, data} envelope. Expected outcomes are values:
// code 0 gives data, -1000 ends the session, -1001 carries a message already in the user's
// language. Anything else (network, time-out, a body that is not an envelope) is an ApiError too,
// with a translated fallback message, so pages show one kind of error.

export const CODE_OK = 0;
export const CODE_SESSION_INVALID = -1000;
export const CODE_MESSAGE = -1001;

export const REQUEST_TIMEOUT_MS = 60_000;

export type ApiErrorKind = 'rejected' | 'session_invalid' | 'network' | 'timeout' | 'bad_response';

/** Keys of the fallback messages, translated by the caller's i18n (see i18n "errors"). */
export type FallbackMessageKey = 'errors.network' | 'errors.timeout' | 'errors.badResponse' | 'errors.sessionInvalid';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** The server's snake_case outcome (`invalid_totp_code`…) when it sent one. */
  readonly errorCode: string | undefined;
  /** Per-field messages, already translated by the server. */
  readonly fields: Readonly<Record<string, string>>;

  constructor(kind: ApiErrorKind, message: string, errorCode?: string, fields?: Record<string, string>) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.errorCode = errorCode;
    this.fields = fields ?? {};
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions {
  /** Prefix of every path, e.g. `/ipor-api`. */
  baseUrl: string;
  fetch: typeof fetch;
  getToken: () => string | null;
  getLanguage: () => string;
  /** Called once per -1000 answer, before the promise rejects: clear the token, go to sign-in. */
  onSessionInvalid: () => void;
  translate: (key: FallbackMessageKey) => string;
  timeoutMs?: number;
}

export interface ApiClient {
  get<T>(path: string, query?: Record<string, QueryValue>): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
}

/** Builds `path?a=1&b=x`, leaving out empty values so "no filter" is never sent as `a=`. */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.append(name, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search === '' ? '' : `?${search}`}`;
}

/** What an answer is known to be before its parts are checked one by one (the contract's Envelope once they are). */
interface UncheckedEnvelope {
  code: number;
  msg: string;
  data: unknown;
  error?: unknown;
  fields?: unknown;
}

function isEnvelope(value: unknown): value is UncheckedEnvelope {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, message] of Object.entries(value)) {
    if (typeof message === 'string') out[key] = message;
  }
  return out;
}

export function createApiClient(options: RequestOptions): ApiClient {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;

  async function send<T>(method: 'GET' | 'POST', url: string, body: unknown): Promise<T> {
    const headers: Record<string, string> = { lang: options.getLanguage(), accept: 'application/json' };
    const token = options.getToken();
    if (token !== null && token !== '') headers.token = token;
    if (method === 'POST') headers['content-type'] = 'application/json';

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    try {
      response = await options.fetch(url, {
        method,
        headers,
        body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
        signal: controller.signal,
      });
    } catch {
      const kind = controller.signal.aborted ? 'timeout' : 'network';
      throw new ApiError(kind, options.translate(kind === 'timeout' ? 'errors.timeout' : 'errors.network'));
    } finally {
      clearTimeout(timer);
    }

    // The envelope decides, whatever the HTTP status: the server may answer 401 with code -1000.
    let payload: unknown;
    try {
      payload = await response.json();
    } catch {
      throw new ApiError('bad_response', options.translate('errors.badResponse'));
    }
    if (!isEnvelope(payload)) throw new ApiError('bad_response', options.translate('errors.badResponse'));

    if (payload.code === CODE_OK) return payload.data as T;
    const errorCode = typeof payload.error === 'string' ? payload.error : undefined;
    if (payload.code === CODE_SESSION_INVALID) {
      options.onSessionInvalid();
      const message = payload.msg !== '' ? payload.msg : options.translate('errors.sessionInvalid');
      throw new ApiError('session_invalid', message, errorCode);
    }
    const message =
      typeof payload.msg === 'string' && payload.msg !== '' ? payload.msg : options.translate('errors.badResponse');
    throw new ApiError('rejected', message, errorCode, stringRecord(payload.fields));
  }

  return {
    get: (path, query) => send('GET', buildUrl(options.baseUrl, path, query), undefined),
    post: (path, body) => send('POST', buildUrl(options.baseUrl, path), body),
  };
}
