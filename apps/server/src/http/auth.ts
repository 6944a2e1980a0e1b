// Reads the session token from the `token` header (SPEC §7) or `Authorization: Bearer`, and gives
// routes a guard that resolves the signed-in customer or staff member before the body is read,
// or rejects with -1000 (or forbidden).

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

/** A route's sign-in check; call it in the handler for who signed in (run once per request). */
export type Guard<T> = ((request: FastifyRequest) => Promise<T>) & {
  /** For the route's onRequest: the check runs before the body is read or anything is validated. */
  readonly first: (request: FastifyRequest) => Promise<void>;
};

/**
 * Wraps a session check so a route runs it first: a call with no valid session answers -1000 (and one
 * without the right answers forbidden) whatever its body holds, rather than field errors that tell a
 * stranger what the call takes. The handler's own call gets the same result without checking again.
 */
export function guard<T>(check: (request: FastifyRequest) => Promise<T>): Guard<T> {
  const results = new WeakMap<FastifyRequest, Promise<T>>();
  const get = (request: FastifyRequest) => {
    let result = results.get(request);
    if (!result) {
      result = check(request);
      results.set(request, result);
    }
    return result;
  };
  return Object.assign(get, {
    first: async (request: FastifyRequest) => {
      await get(request);
    },
  });
}
