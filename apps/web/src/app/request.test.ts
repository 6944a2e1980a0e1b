// Proves the request wrapper's SPEC §7–8 contract with a fake fetch: what it sends, and how it reacts
// to codes 0, -1000 and -1001, to a network failure and to the 60 s time-out.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createRequest, NetworkError, type RequestDeps, unwrap } from './request.ts';

function fakeDeps(respond: (url: string, init: RequestInit) => Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const events: string[] = [];
  const deps: RequestDeps = {
    fetch: ((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return respond(url, init);
    }) as typeof fetch,
    getToken: () => 'tok-123',
    getLanguage: () => 'pt-BR',
    onSessionInvalid: () => events.push('session-invalid'),
    showToast: (message, durationMs) => events.push(`toast:${message}:${durationMs}`),
    showLoading: () => events.push('loading'),
    hideLoading: () => events.push('hide-loading'),
    networkErrorMessage: () => 'Erro de rede',
  };
  return { deps, calls, events };
}

const json = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body)));

afterEach(() => {
  vi.useRealTimers();
});

describe('createRequest', () => {
  it('sends form-encoded POST bodies with the token, lang, XHR and idempotency headers', async () => {
    const { deps, calls } = fakeDeps(() => json({ code: 0, msg: '', data: { ok: true } }));
    const request = createRequest(deps);
    const res = await request('/user/login', {
      method: 'POST',
      data: { areaCode: '91', phone: '9876543210', password: 'a&b=c', totpCode: undefined },
      idempotencyKey: 'key-1',
    });
    expect(res.data).toEqual({ ok: true });
    const call = calls[0]!;
    expect(call.url).toBe('/ipor-api/user/login');
    expect(call.init.method).toBe('POST');
    expect(call.init.body).toBe('areaCode=91&phone=9876543210&password=a%26b%3Dc');
    const headers = call.init.headers as Record<string, string>;
    expect(headers.token).toBe('tok-123');
    expect(headers.lang).toBe('pt-BR');
    expect(headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(headers.Accept).toBe('application/json');
    expect(headers['Content-Type']).toContain('application/x-www-form-urlencoded');
    expect(headers['Idempotency-Key']).toBe('key-1');
  });

  it('puts GET data in the query string and sends no token when signed out', async () => {
    const { deps, calls } = fakeDeps(() => json({ code: 0, msg: '', data: null }));
    deps.getToken = () => null;
    await createRequest(deps)('/stock/search', { data: { q: 'TCS', page: 1 } });
    expect(calls[0]!.url).toBe('/ipor-api/stock/search?q=TCS&page=1');
    expect((calls[0]!.init.headers as Record<string, string>).token).toBeUndefined();
    expect(calls[0]!.init.body).toBeUndefined();
  });

  it('on -1000 clears the session and still returns the response', async () => {
    const { deps, events } = fakeDeps(() => json({ code: -1000, msg: 'Not logged in', data: null }));
    const res = await createRequest(deps)('/user/login/info');
    expect(res.code).toBe(-1000);
    expect(events).toEqual(['session-invalid']);
  });

  it('on -1001 toasts the server message for one second and returns the response', async () => {
    const { deps, events } = fakeDeps(() =>
      json({ code: -1001, msg: 'Código inválido', data: null, error: 'captcha_incorrect' }),
    );
    const res = await createRequest(deps)('/user/register', { method: 'POST' });
    expect(res.code === -1001 && res.error).toBe('captcha_incorrect');
    expect(events).toEqual(['toast:Código inválido:1000']);
  });

  it('does not toast -1001 when the caller shows the message itself', async () => {
    const { deps, events } = fakeDeps(() => json({ code: -1001, msg: 'x', data: null, fields: { phone: 'bad' } }));
    const pending = unwrap(createRequest(deps)('/user/register', { method: 'POST', isSilent: true }));
    await expect(pending).rejects.toBeInstanceOf(ApiError);
    await pending.catch((error: ApiError) => expect(error.fields).toEqual({ phone: 'bad' }));
    expect(events).toEqual([]);
  });

  it('on a network failure hides the loading indicator, toasts and rejects', async () => {
    const { deps, events } = fakeDeps(() => Promise.reject(new TypeError('Failed to fetch')));
    const pending = createRequest(deps)('/common/props', { hasLoading: true });
    await expect(pending).rejects.toBeInstanceOf(NetworkError);
    expect(events).toEqual(['loading', 'hide-loading', 'toast:Erro de rede:1000']);
  });

  it('stays quiet for background reads: no toast for -1001 or a network failure', async () => {
    const rejected = fakeDeps(() => json({ code: -1001, msg: 'Not found', data: null, error: 'not_found' }));
    await expect(unwrap(createRequest(rejected.deps)('/index/ads', { isBackground: true }))).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(rejected.events).toEqual([]);
    const offline = fakeDeps(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(createRequest(offline.deps)('/stock/index/list', { isBackground: true })).rejects.toBeInstanceOf(
      NetworkError,
    );
    expect(offline.events).toEqual(['hide-loading']);
  });

  it('treats a non-JSON answer as a network failure', async () => {
    const { deps } = fakeDeps(() => Promise.resolve(new Response('<html>502</html>', { status: 502 })));
    await expect(createRequest(deps)('/common/props')).rejects.toBeInstanceOf(NetworkError);
  });

  it('aborts after 60 seconds', async () => {
    vi.useFakeTimers();
    const { deps } = fakeDeps(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = createRequest(deps)('/slow');
    const outcome = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(59_999);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).isTimeout).toBe(true);
  });

  it('unwrap resolves data on code 0', async () => {
    const { deps } = fakeDeps(() => json({ code: 0, msg: '', data: { mode: 'paper' } }));
    await expect(unwrap(createRequest(deps)('/common/props'))).resolves.toEqual({ mode: 'paper' });
  });
});
