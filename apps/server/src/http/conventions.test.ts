// The HTTP conventions of SPEC §7–8 through the real stack: envelope, language headers, JSON and form
// bodies, field-level validation errors, security headers, request ids, the OpenAPI document.

import { openDb } from '@bourse/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../testing.ts';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp(await openDb({ dataDir: null }));
});
afterAll(() => t.close());

describe('HTTP conventions', () => {
  it('reads the language from lang, then Accept-Language, defaulting to en-US', async () => {
    const inject = (headers: Record<string, string>) =>
      t.app.http.inject({
        method: 'POST',
        url: '/ipor-api/user/login',
        headers,
        payload: { areaCode: '91', phone: '1', password: 'x' },
      });
    expect((await inject({})).json().msg).toBe('Phone number format is incorrect');
    expect((await inject({ 'accept-language': 'pt-BR,pt;q=0.9' })).json().msg).toBe(
      'O formato do número de telefone está incorreto',
    );
    expect((await inject({ lang: 'en-US', 'accept-language': 'pt-BR' })).json().msg).toBe(
      'Phone number format is incorrect',
    );
  });

  it('gives a translated message per invalid field and keeps the HTTP status fitting', async () => {
    const res = await t.call('POST', '/user/register', { json: { phone: '', password: '1' }, lang: 'pt-BR' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1001);
    expect(res.body.fields).toMatchObject({
      phone: 'Este campo é obrigatório',
      password: 'A senha deve ter de 6 a 20 caracteres',
      captchaId: 'Este campo é obrigatório',
    });
  });

  it('answers unknown API paths with a not_found envelope', async () => {
    const res = await t.call('GET', '/no/such/call');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: -1001, error: 'not_found' });
  });

  it('sends security headers (the API set on API answers, the document set elsewhere) and a request id', async () => {
    const res = await t.app.http.inject({
      method: 'GET',
      url: '/ipor-api/common/props',
      headers: { 'x-request-id': 'trace-12345678' },
    });
    expect(res.headers['x-request-id']).toBe('trace-12345678');
    // A JSON answer: the API's set (no caching, no framing, no sniffing, HSTS), not the document policies.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    // Anything else (the web app's pages) carries helmet's whole set, the full CSP with it.
    const page = await t.app.http.inject({ method: 'GET', url: '/markets' });
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('serves an OpenAPI document generated from the same schemas', async () => {
    const doc = (await t.app.http.inject({ method: 'GET', url: '/ipor-api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    const register = doc.paths['/user/register'] ?? doc.paths['/ipor-api/user/register'];
    expect(register.post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['phone', 'password', 'confirmPassword', 'captchaId', 'captchaCode']),
    );
    expect(Object.keys(doc.paths).some((p) => p.includes('/test/'))).toBe(false);
  });
});
