// Reads the session token from the `token` header (SPEC §7) or `Authorization: Bearer`, and gives
// routes a guard that resolves the signed-in customer or staff member, or rejects with -1000.

import type { FastifyRequest } from 'fastify';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.token;
  const token = Array.isArray(header) ? header[0] : header;
  if (token) return token;
  const auth = request.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim() || undefined;
  return undefined;
}

export function clientMeta(request: FastifyRequest) {
  return { userAgent: String(request.headers['user-agent'] ?? ''), ip: request.ip };
}
