// HTTP routes of customer accounts (SPEC §7: /user/*, /common/code/send). Validation is the contract's
// zod schemas; the answers are SPEC §8 envelopes.

import {
  changePasswordBody,
  loginBody,
  loginInfo,
  loginResult,
  registerBody,
  revokeSessionBody,
  sendCodeBody,
  sendCodeResult,
  sessionView,
  setPinBody,
  totpDisableBody,
  totpEnableBody,
  totpSetupView,
  updateEmailBody,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, clientMeta } from '../../http/auth.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts, Authenticated } from './service.ts';

const done = okEnvelope(z.object({ done: z.literal(true) }));

export function accountRoutes(app: FastifyInstance, accounts: Accounts) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = (request: FastifyRequest): Promise<Authenticated> => accounts.authenticate(bearerToken(request));
  const tags = ['accounts'];

  r.post(
    '/user/register',
    { schema: { tags, body: registerBody, response: { 200: okEnvelope(loginResult) } } },
    async (req) => ok(await accounts.register(req.body, clientMeta(req)), 'registration successful'),
  );
  r.post(
    '/user/login',
    { schema: { tags, body: loginBody, response: { 200: okEnvelope(loginResult) } } },
    async (req) => ok(await accounts.login(req.body, clientMeta(req)), 'login successful'),
  );
  r.get('/user/login/info', { schema: { tags, response: { 200: okEnvelope(loginInfo) } } }, async (req) =>
    ok(accounts.loginInfo((await signedIn(req)).user)),
  );
  r.post('/user/logout', { schema: { tags, response: { 200: done } } }, async (req) => {
    await accounts.logout(await signedIn(req));
    return ok({ done: true as const });
  });
  r.get(
    '/user/sessions',
    { schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(sessionView) })) } } },
    async (req) => ok({ items: await accounts.sessions(await signedIn(req)) }),
  );
  r.post(
    '/user/sessions/revoke',
    { schema: { tags, body: revokeSessionBody, response: { 200: done } } },
    async (req) => {
      await accounts.revokeSession(await signedIn(req), req.body.id);
      return ok({ done: true as const });
    },
  );
  r.post(
    '/user/update/password',
    { schema: { tags, body: changePasswordBody, response: { 200: done } } },
    async (req) => {
      await accounts.changePassword(await signedIn(req), req.body.oldPassword, req.body.password);
      return ok({ done: true as const }, 'modified');
    },
  );
  for (const kind of ['trade', 'withdraw'] as const) {
    r.post(
      `/user/update/${kind}Password`,
      { schema: { tags, body: setPinBody, response: { 200: done } } },
      async (req) => {
        await accounts.setPin(await signedIn(req), kind, req.body.password, req.body.loginPassword);
        return ok({ done: true as const }, 'modified');
      },
    );
  }
  r.post('/user/update/email', { schema: { tags, body: updateEmailBody, response: { 200: done } } }, async (req) => {
    await accounts.updateEmail(await signedIn(req), req.body.email, req.body.loginPassword);
    return ok({ done: true as const }, 'modified');
  });
  r.post('/user/2fa/setup', { schema: { tags, response: { 200: okEnvelope(totpSetupView) } } }, async (req) =>
    ok(await accounts.totpSetup(await signedIn(req))),
  );
  r.post('/user/2fa/enable', { schema: { tags, body: totpEnableBody, response: { 200: done } } }, async (req) => {
    await accounts.totpEnable(await signedIn(req), req.body.code);
    return ok({ done: true as const }, 'modified');
  });
  r.post('/user/2fa/disable', { schema: { tags, body: totpDisableBody, response: { 200: done } } }, async (req) => {
    await accounts.totpDisable(await signedIn(req), req.body.code, req.body.loginPassword);
    return ok({ done: true as const }, 'modified');
  });
  r.post(
    '/common/code/send',
    {
      schema: {
        tags,
        body: sendCodeBody,
        response: { 200: okEnvelope(sendCodeResult) },
      },
    },
    async (req) => ok(await accounts.sendCode(req.body.areaCode, req.body.phone, req.body.purpose), 'sent'),
  );
}
