// HTTP routes of the staff console under /admin. Each route names the permission it needs; the
// service checks it against the signed-in staff member's role.

import {
  auditEntryView,
  auditQuery,
  createdStaffView,
  customerUserView,
  doneView,
  type StaffPermission,
  staffCreateBody,
  staffDisableBody,
  staffLoginBody,
  staffLoginResult,
  staffMemberView,
  staffMeView,
  staffPasswordBody,
  userStatusBody,
  usersQuery,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { bearerToken, type Guard, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Staff, StaffAuth } from './service.ts';

export function staffRoutes(app: FastifyInstance, staff: Staff, config: Config) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff'];
  // One guard per permission, so a route's onRequest and its handler share the same check.
  const guards = new Map<StaffPermission | undefined, Guard<StaffAuth>>();
  const can = (permission?: StaffPermission) => {
    let g = guards.get(permission);
    if (!g) {
      g = guard((request) => staff.authenticate(bearerToken(request), permission));
      guards.set(permission, g);
    }
    return g;
  };
  const as = (request: FastifyRequest, permission?: StaffPermission) => can(permission)(request);
  // Response schemas: the console's types come from them, and tsc holds each handler to its own.
  const doneResponse = { 200: okEnvelope(doneView) };
  const paged = <T extends z.ZodType>(item: T) => ({
    200: okEnvelope(z.object({ items: z.array(item), total: z.number().int() })),
  });

  r.post(
    '/admin/auth/login',
    { schema: { tags, body: staffLoginBody, response: { 200: okEnvelope(staffLoginResult) } } },
    async (req) => done(req, 'login', await staff.login(req.body.username, req.body.password, req.body.totpCode)),
  );
  r.get(
    '/admin/auth/me',
    { onRequest: can().first, schema: { tags, response: { 200: okEnvelope(staffMeView) } } },
    async (req) => ok({ ...staff.me(await as(req)), mode: config.mode }),
  );
  r.post('/admin/auth/logout', { onRequest: can().first, schema: { tags, response: doneResponse } }, async (req) => {
    await staff.logout(await as(req));
    return ok({ done: true as const });
  });
  r.post(
    '/admin/auth/password',
    { onRequest: can().first, schema: { tags, body: staffPasswordBody, response: doneResponse } },
    async (req) => {
      await staff.changePassword(await as(req), req.body.oldPassword, req.body.password);
      return done(req, 'modified', { done: true as const });
    },
  );
  r.get(
    '/admin/audit',
    {
      onRequest: can('audit.read').first,
      schema: { tags, querystring: auditQuery, response: paged(auditEntryView) },
    },
    async (req) => {
      await as(req, 'audit.read');
      return ok(await staff.audit(req.query));
    },
  );
  r.get(
    '/admin/staff',
    {
      onRequest: can('staff.manage').first,
      schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(staffMemberView) })) } },
    },
    async (req) => {
      await as(req, 'staff.manage');
      return ok({ items: await staff.list() });
    },
  );
  r.post(
    '/admin/staff/create',
    {
      onRequest: can('staff.manage').first,
      schema: { tags, body: staffCreateBody, response: { 200: okEnvelope(createdStaffView) } },
    },
    async (req) => ok(await staff.create(await as(req, 'staff.manage'), req.body)),
  );
  r.post(
    '/admin/staff/disable',
    { onRequest: can('staff.manage').first, schema: { tags, body: staffDisableBody, response: doneResponse } },
    async (req) => {
      await staff.disable(await as(req, 'staff.manage'), req.body.id, req.body.reason);
      return ok({ done: true as const });
    },
  );
  r.get(
    '/admin/users',
    {
      onRequest: can('users.read').first,
      schema: { tags, querystring: usersQuery, response: paged(customerUserView) },
    },
    async (req) => {
      await as(req, 'users.read');
      return ok(await staff.users(req.query));
    },
  );
  r.post(
    '/admin/users/status',
    { onRequest: can('users.status').first, schema: { tags, body: userStatusBody, response: doneResponse } },
    async (req) => {
      await staff.setUserStatus(await as(req, 'users.status'), req.body.userId, req.body.status, req.body.reason);
      return done(req, 'modified', { done: true as const });
    },
  );
}
