// HTTP routes of the staff console under /admin. Each route names the permission it needs; the
// service checks it against the signed-in staff member's role.

import {
  auditQuery,
  type StaffPermission,
  staffCreateBody,
  staffDisableBody,
  staffLoginBody,
  staffPasswordBody,
  userStatusBody,
  usersQuery,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { bearerToken } from '../../http/auth.ts';
import { done, ok } from '../../http/envelope.ts';
import type { Staff } from './service.ts';

export function staffRoutes(app: FastifyInstance, staff: Staff, config: Config) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff'];
  const as = (request: FastifyRequest, permission?: StaffPermission) =>
    staff.authenticate(bearerToken(request), permission);

  r.post('/admin/auth/login', { schema: { tags, body: staffLoginBody } }, async (req) =>
    done(req, 'login', await staff.login(req.body.username, req.body.password, req.body.totpCode)),
  );
  r.get('/admin/auth/me', { schema: { tags } }, async (req) => ok({ ...staff.me(await as(req)), mode: config.mode }));
  r.post('/admin/auth/logout', { schema: { tags } }, async (req) => {
    await staff.logout(await as(req));
    return ok({ done: true });
  });
  r.post('/admin/auth/password', { schema: { tags, body: staffPasswordBody } }, async (req) => {
    await staff.changePassword(await as(req), req.body.oldPassword, req.body.password);
    return done(req, 'modified', { done: true });
  });
  r.get('/admin/audit', { schema: { tags, querystring: auditQuery } }, async (req) => {
    await as(req, 'audit.read');
    return ok(await staff.audit(req.query));
  });
  r.get('/admin/staff', { schema: { tags } }, async (req) => {
    await as(req, 'staff.manage');
    return ok({ items: await staff.list() });
  });
  r.post('/admin/staff/create', { schema: { tags, body: staffCreateBody } }, async (req) =>
    ok(await staff.create(await as(req, 'staff.manage'), req.body)),
  );
  r.post('/admin/staff/disable', { schema: { tags, body: staffDisableBody } }, async (req) => {
    await staff.disable(await as(req, 'staff.manage'), req.body.id, req.body.reason);
    return ok({ done: true });
  });
  r.get('/admin/users', { schema: { tags, querystring: usersQuery } }, async (req) => {
    await as(req, 'users.read');
    return ok(await staff.users(req.query));
  });
  r.post('/admin/users/status', { schema: { tags, body: userStatusBody } }, async (req) => {
    await staff.setUserStatus(await as(req, 'users.status'), req.body.userId, req.body.status, req.body.reason);
    return done(req, 'modified', { done: true });
  });
}
