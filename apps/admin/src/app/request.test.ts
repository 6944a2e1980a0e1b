import { describe, expect, it, vi } from 'vitest';
import { ApiError, buildUrl, createApiClient, type FallbackMessageKey } from './request.ts';

interface Call {
  url: string;
  init: RequestInit;
}

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(answer: (call: Call) => Response | Promise<Response>, token: string | null = 'tok-1') {
  const calls: Call[] = [];
  const onSessionInvalid = vi.fn();
  const fetchMock = (async (url: string, init: RequestInit) => {
    const call = { url, init };
    calls.push(call);
    return answer(call);
  }) as unknown as typeof fetch;
  const client = createApiClient({
    baseUrl: '/ipor-api',
    fetch: fetchMock,
    getToken: () => token,
    getLanguage: () => 'pt-BR',
    onSessionInvalid,
    translate: (key: FallbackMessageKey) => `t:${key}`,
    timeoutMs: 50,
  });
  return { client, calls, onSessionInvalid };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('request helper', () => {
  it('sends the token and language headers and returns data on code 0', async () => {
    const { client, calls } = setup(() => jsonResponse({ code: 0, msg: 'ok', data: { id: 7 } }));
    await expect(client.post('/admin/staff/disable', { id: 7, reason: 'left' })).resolves.toEqual({ id: 7 });
    const headers = calls[0]?.init.headers as Record<string, string>;
    expect(calls[0]?.url).toBe('/ipor-api/admin/staff/disable');
    expect(calls[0]?.init.method).toBe('POST');
    expect(headers.token).toBe('tok-1');
    expect(headers.lang).toBe('pt-BR');
    expect(headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ id: 7, reason: 'left' });
  });

  it('leaves out the token header when signed out, and empty query values', async () => {
    const { client, calls } = setup(() => jsonResponse({ code: 0, msg: '', data: null }), null);
    await client.get('/admin/audit', { page: 2, limit: 20, action: '', staffId: undefined });
    expect(calls[0]?.url).toBe('/ipor-api/admin/audit?page=2&limit=20');
    const headers = calls[0]?.init.headers as Record<string, string> | undefined;
    expect(headers).toBeDefined();
    expect(headers?.token).toBeUndefined();
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it('on -1000 ends the session and rejects, whatever the HTTP status', async () => {
    const { client, onSessionInvalid } = setup(() =>
      jsonResponse({ code: -1000, msg: 'Sessão expirada', data: null, error: 'session_invalid' }, 401),
    );
    const error = await rejection(client.get('/admin/auth/me'));
    expect(error.kind).toBe('session_invalid');
    expect(error.message).toBe('Sessão expirada');
    expect(onSessionInvalid).toHaveBeenCalledTimes(1);
  });

  it('on -1001 rejects with the server message, error code and field messages', async () => {
    const { client, onSessionInvalid } = setup(() =>
      jsonResponse(
        {
          code: -1001,
          msg: 'Código de verificação inválido',
          data: null,
          error: 'invalid_totp_code',
          fields: { totpCode: 'Código inválido', ignored: 3 },
        },
        400,
      ),
    );
    const error = await rejection(client.post('/admin/auth/login', {}));
    expect(error.kind).toBe('rejected');
    expect(error.message).toBe('Código de verificação inválido');
    expect(error.errorCode).toBe('invalid_totp_code');
    expect(error.fields).toEqual({ totpCode: 'Código inválido' });
    expect(onSessionInvalid).not.toHaveBeenCalled();
  });

  it('turns a body that is not an envelope into a translated bad_response error', async () => {
    const { client } = setup(() => new Response('<html>502</html>', { status: 502 }));
    const error = await rejection(client.get('/admin/auth/me'));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toBe('t:errors.badResponse');
  });

  it('turns a failed fetch into a translated network error', async () => {
    const { client } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await rejection(client.get('/admin/auth/me'));
    expect(error.kind).toBe('network');
    expect(error.message).toBe('t:errors.network');
  });

  it('aborts after the time-out and says so', async () => {
    const { client } = setup(
      (call) =>
        new Promise<Response>((_resolve, reject) => {
          call.init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const error = await rejection(client.get('/admin/auth/me'));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('t:errors.timeout');
  });

  it('builds URLs with encoded query values', () => {
    expect(buildUrl('/ipor-api', '/admin/users', { keyword: 'a b&c', page: 1 })).toBe(
      '/ipor-api/admin/users?keyword=a+b%26c&page=1',
    );
  });
});
