// Abuse protection: @fastify/rate-limit ceilings per client address (request.ip: the socket's address
// unless TRUST_PROXY names the proxy), one over every API call and tighter ones on sign-in, registration,
// code sending and order placement. Over a ceiling a call answers 429 too_many_requests in the envelope
// (envelope.ts maps the plugin's error) with Retry-After. Counters live in this process's memory.

import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimits } from '../config.ts';

/** The routes with their own ceiling (method and path under the API prefix); each counts on its own. */
export const ROUTE_LIMITS: Readonly<Record<string, keyof Omit<RateLimits, 'windowSec' | 'global'>>> = {
  'POST /user/login': 'signIn',
  'POST /admin/auth/login': 'signIn',
  'POST /user/register': 'register',
  'POST /common/code/send': 'codeSend',
  'POST /stock/order/buy': 'order',
  'POST /stock/order/sell': 'order',
  'POST /coin/order/add': 'order',
  'POST /coin/contract/order/add': 'order',
  // A deposit's receipt photo is decoded and re-encoded: as costly as an order, limited alike.
  'POST /user/recharge/add': 'order',
};

/** Registers the limits on the API scope: call before its routes, whose options it reads as they are added. */
export async function registerRateLimits(api: FastifyInstance, limits: RateLimits): Promise<void> {
  const timeWindow = limits.windowSec * 1000;
  // Runs before the plugin's own onRoute hook (added after it), so the plugin sees each route's ceiling
  // without every feature's routes file naming one.
  // The route's own onRequest hooks (its session check) before the plugin adds its counter.
  const ownHooks = new WeakMap<object, unknown[]>();
  api.addHook('onRoute', (route) => {
    ownHooks.set(route, hooksOf(route.onRequest));
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const key = methods.map((m) => ROUTE_LIMITS[`${m} ${route.routePath}`]).find(Boolean);
    if (key) route.config = { ...(route.config as object), rateLimit: { max: limits[key], timeWindow } };
    // A WebSocket opens with one request: counted like any call, by address. An upgrade's socket may
    // carry none (an injected one, or one already closed), which the default key cannot read.
    else if ((route as { websocket?: boolean }).websocket)
      route.config = {
        ...(route.config as object),
        rateLimit: { keyGenerator: (request: FastifyRequest) => request.ip ?? 'unknown' },
      };
  });
  await api.register(rateLimit, { global: true, max: limits.global, timeWindow });
  // The plugin appends its counter after the route's hooks; put it first, so a flood is refused before
  // any session is looked up (a call without a session still counts toward its route's ceiling).
  api.addHook('onRoute', (route) => {
    const own = ownHooks.get(route) ?? [];
    const hooks = hooksOf(route.onRequest);
    const added = hooks.filter((hook) => !own.includes(hook));
    if (added.length > 0 && own.length > 0) route.onRequest = [...added, ...own] as typeof route.onRequest;
  });
}

function hooksOf(hooks: unknown): unknown[] {
  if (Array.isArray(hooks)) return [...hooks];
  return typeof hooks === 'function' ? [hooks] : [];
}
