import helmet from 'helmet';
import { expect, it } from 'vitest';
import { securityHeaders } from './security-headers.ts';

it("gives exactly the headers helmet's middleware sets on a response", () => {
  const options = { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", 'data:'] } } };
  const set = new Map<string, string>();
  helmet(options)(
    {} as never,
    { setHeader: (n: string, v: string) => set.set(n.toLowerCase(), String(v)), removeHeader: () => {} } as never,
    () => {},
  );
  const headers = securityHeaders(options);
  expect(headers).toEqual(Object.fromEntries(set));
  expect(headers['content-security-policy']).toContain("img-src 'self' data:;");
  expect(headers['content-security-policy']).toContain("object-src 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
});

it('refuses options helmet rejects', () => {
  expect(() => securityHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ['self'] } } })).toThrow();
});
