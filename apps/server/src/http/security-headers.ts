// The security headers of our pages (CSP, HSTS, nosniff, frame and referrer policies…), from helmet's
// own rules, computed once at start-up, and the shorter set for the API's JSON answers. Our directives
// never depend on the request, so running helmet's middleware per response (it re-parses the CSP each
// time: ~7% of the order path's CPU, bench/HISTORY.md) would only repeat the same answer.

import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

export function securityHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const removed: string[] = [];
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      removed.push(name.toLowerCase());
    },
  };
  let failed: unknown = null;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
    failed = error ?? null;
  });
  if (failed) throw failed;
  // helmet removes X-Powered-By, which Fastify never sends.
  for (const name of removed) if (name !== 'x-powered-by') throw new Error(`helmet wants ${name} removed`);
  return headers;
}

/**
 * The headers for the API's JSON answers (OWASP REST Security Cheat Sheet, "Security headers"): a JSON
 * answer is never rendered as a document, so the document policies (the full CSP, cross-origin and
 * referrer policies…) do nothing for it; what applies is no caching of personal data, no framing, no
 * type sniffing, and HSTS. ~600 fewer bytes on every answer, for the server to write and the client to read.
 */
export function apiSecurityHeaders(document: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const hsts = document['strict-transport-security'];
  return {
    'cache-control': 'no-store',
    'content-security-policy': "frame-ancestors 'none'",
    ...(hsts ? { 'strict-transport-security': hsts } : {}),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}
