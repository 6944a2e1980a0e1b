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
import { bearerToken } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Staff } from './service.ts';

export function staffRoutes(app: FastifyInstance, staff: Staff, config: Config) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff'];
  // Response schemas: the console's types come from them, and tsc holds each handler to its own.
  const done = { 200: okEnvelope(doneView) };
  const paged = <T extends z.ZodType>(item: T) => ({
    200: okEnvelope(z.object({ items: z.array(item), total: z.number().int() })),
  });
  const as = (request: FastifyRequest, permission?: StaffPermission) =>
    staff.authenticate(bearerToken(request), permission);

  r.post(
    '/admin/auth/login',
    { schema: { tags, body: staffLoginBody, response: { 200: okEnvelope(staffLoginResult) } } },
    async (req) => ok(await staff.login(req.body.username, req.body.password, req.body.totpCode), 'login successful'),
  );
  r.get('/admin/auth/me', { schema: { tags, response: { 200: okEnvelope(staffMeView) } } }, async (req) =>
    ok({ ...staff.me(await as(req)), mode: config.mode }),
  );
  r.post('/admin/auth/logout', { schema: { tags, response: done } }, async (req) => {
    await staff.logout(await as(req));
    return ok({ done: true as const });
  });
  r.post('/admin/auth/password', { schema: { tags, body: staffPasswordBody, response: done } }, async (req) => {
    await staff.changePassword(await as(req), req.body.oldPassword, req.body.password);
    return ok({ done: true as const }, 'modified');
  });
  r.get('/admin/audit', { schema: { tags, querystring: auditQuery, response: paged(auditEntryView) } }, async (req) => {
    await as(req, 'audit.read');
    return ok(await staff.audit(req.query));
  });
  r.get(
    '/admin/staff',
    { schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(staffMemberView) })) } } },
    async (req) => {
      await as(req, 'staff.manage');
      return ok({ items: await staff.list() });
    },
  );
  r.post(
    '/admin/staff/create',
    { schema: { tags, body: staffCreateBody, response: { 200: okEnvelope(createdStaffView) } } },
    async (req) => ok(await staff.create(await as(req, 'staff.manage'), req.body)),
  );
  r.post('/admin/staff/disable', { schema: { tags, body: staffDisableBody, response: done } }, async (req) => {
    await staff.disable(await as(req, 'staff.manage'), req.body.id, req.body.reason);
    return ok({ done: true as const });
  });
  r.get(
    '/admin/users',
    { schema: { tags, querystring: usersQuery, response: paged(customerUserView) } },
    async (req) => {
      await as(req, 'users.read');
      return ok(await staff.users(req.query));
    },
  );
  r.post('/admin/users/status', { schema: { tags, body: userStatusBody, response: done } }, async (req) => {
    await staff.setUserStatus(await as(req, 'users.status'), req.body.userId, req.body.status, req.body.reason);
    return ok({ done: true as const }, 'modified');
  });
}
