// The HTTP conventions of SPEC §7–8 through the real stack: envelope, language headers, JSON and form
// bodies, field-level validation errors, security headers, request ids, the OpenAPI document.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '@bourse/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../testing.ts';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp(await openDb({ dataDir: null }));
});
afterAll(() => t.close());

describe('HTTP conventions', () => {
  it('checks sessions at onRequest in every feature, so no body is read for a caller without one', () => {
    const features = join(import.meta.dirname, '../features');
    const late: string[] = [];
    for (const feature of readdirSync(features)) {
      const file = join(features, feature, 'routes.ts');
      let source: string;
      try {
        source = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      if (/preValidation:\s*[\w.()']+\.first/.test(source)) late.push(feature);
    }
    expect(late).toEqual([]);
  });

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

  it('refuses a body over 1 MiB with 413, and an unsupported or unreadable body with its own code, in both languages', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    const cases: [string, string, string, number, string, string, string][] = [
      [
        'a 2 MiB JSON body',
        'application/json',
        JSON.stringify({ areaCode: '91', phone: big, password: 'secret12' }),
        413,
        'payload_too_large',
        'The request is too large',
        'A solicitação é grande demais',
      ],
      [
        'a 2 MiB form',
        'application/x-www-form-urlencoded',
        `areaCode=91&password=secret12&phone=${big}`,
        413,
        'payload_too_large',
        'The request is too large',
        'A solicitação é grande demais',
      ],
      ...['application/xml', 'text/plain', 'multipart/form-data; boundary=x'].map(
        (type) =>
          [
            type,
            type,
            'phone=9876543210',
            415,
            'unsupported_media_type',
            'The request must be sent as a form or as JSON',
            'A solicitação deve ser enviada como formulário ou como JSON',
          ] as [string, string, string, number, string, string, string],
      ),
      ...['{"phone":', '', '{"__proto__":{"admin":true}}'].map(
        (payload) =>
          [
            `the JSON ${JSON.stringify(payload)}`,
            'application/json',
            payload,
            400,
            'malformed_body',
            'The request could not be read: its content is malformed',
            'Não foi possível ler a solicitação: o conteúdo está malformado',
          ] as [string, string, string, number, string, string, string],
      ),
    ];
    for (const [name, type, payload, status, error, en, pt] of cases) {
      for (const [lang, msg] of [
        ['en-US', en],
        ['pt-BR', pt],
      ] as const) {
        const res = await t.app.http.inject({
          method: 'POST',
          url: '/ipor-api/user/login',
          headers: { 'content-type': type, lang },
          payload,
        });
        expect(res.statusCode, name).toBe(status);
        expect(res.json(), name).toEqual({ code: -1001, msg, data: null, error });
      }
    }
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
