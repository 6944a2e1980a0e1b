// HTTP routes of customer accounts (SPEC §7: /user/*, /common/code/send). Validation is the contract's
// zod schemas; the answers are SPEC §8 envelopes.

import {
  changePasswordBody,
  loginBody,
  loginInfo,
  loginResult,
  profileView,
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
  updateProfileBody,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, clientMeta, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts, Authenticated } from './service.ts';

const doneView = okEnvelope(z.object({ done: z.literal(true) }));

export function accountRoutes(app: FastifyInstance, accounts: Accounts) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = guard((request): Promise<Authenticated> => accounts.authenticate(bearerToken(request)));
  const tags = ['accounts'];

  r.post(
    '/user/register',
    { schema: { tags, body: registerBody, response: { 200: okEnvelope(loginResult) } } },
    async (req) => done(req, 'registration', await accounts.register(req.body, clientMeta(req))),
  );
  r.post(
    '/user/login',
    { schema: { tags, body: loginBody, response: { 200: okEnvelope(loginResult) } } },
    async (req) => done(req, 'login', await accounts.login(req.body, clientMeta(req))),
  );
  r.get(
    '/user/login/info',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(loginInfo) } } },
    async (req) => ok(accounts.loginInfo((await signedIn(req)).user)),
  );
  r.post(
    '/user/info',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(profileView) } } },
    async (req) => ok(await accounts.profile(await signedIn(req))),
  );
  r.post(
    '/user/update',
    {
      onRequest: signedIn.first,
      schema: { tags, body: updateProfileBody, response: { 200: okEnvelope(profileView) } },
    },
    async (req) => done(req, 'modified', await accounts.updateProfile(await signedIn(req), req.body.nickname)),
  );
  r.post('/user/logout', { onRequest: signedIn.first, schema: { tags, response: { 200: doneView } } }, async (req) => {
    await accounts.logout(await signedIn(req));
    return ok({ done: true as const });
  });
  r.get(
    '/user/sessions',
    {
      onRequest: signedIn.first,
      schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(sessionView) })) } },
    },
    async (req) => ok({ items: await accounts.sessions(await signedIn(req)) }),
  );
  r.post(
    '/user/sessions/revoke',
    { onRequest: signedIn.first, schema: { tags, body: revokeSessionBody, response: { 200: doneView } } },
    async (req) => {
      await accounts.revokeSession(await signedIn(req), req.body.id);
      return ok({ done: true as const });
    },
  );
  r.post(
    '/user/update/password',
    { onRequest: signedIn.first, schema: { tags, body: changePasswordBody, response: { 200: doneView } } },
    async (req) => {
      await accounts.changePassword(await signedIn(req), req.body.oldPassword, req.body.password);
      return done(req, 'modified', { done: true as const });
    },
  );
  for (const kind of ['trade', 'withdraw'] as const) {
    r.post(
      `/user/update/${kind}Password`,
      { onRequest: signedIn.first, schema: { tags, body: setPinBody, response: { 200: doneView } } },
      async (req) => {
        await accounts.setPin(await signedIn(req), kind, req.body.password, req.body.loginPassword);
        return done(req, 'modified', { done: true as const });
      },
    );
  }
  r.post(
    '/user/update/email',
    { onRequest: signedIn.first, schema: { tags, body: updateEmailBody, response: { 200: doneView } } },
    async (req) => {
      await accounts.updateEmail(await signedIn(req), req.body.email, req.body.loginPassword);
      return done(req, 'modified', { done: true as const });
    },
  );
  r.post(
    '/user/2fa/setup',
    {
      onRequest: signedIn.first,
      schema: { tags, response: { 200: okEnvelope(totpSetupView) } },
    },
    async (req) => ok(await accounts.totpSetup(await signedIn(req))),
  );
  r.post(
    '/user/2fa/enable',
    { onRequest: signedIn.first, schema: { tags, body: totpEnableBody, response: { 200: doneView } } },
    async (req) => {
      await accounts.totpEnable(await signedIn(req), req.body.code);
      return done(req, 'modified', { done: true as const });
    },
  );
  r.post(
    '/user/2fa/disable',
    { onRequest: signedIn.first, schema: { tags, body: totpDisableBody, response: { 200: doneView } } },
    async (req) => {
      await accounts.totpDisable(await signedIn(req), req.body.code, req.body.loginPassword);
      return done(req, 'modified', { done: true as const });
    },
  );
  r.post(
    '/common/code/send',
    {
      schema: {
        tags,
        body: sendCodeBody,
        response: { 200: okEnvelope(sendCodeResult) },
      },
    },
    async (req) => done(req, 'sent', await accounts.sendCode(req.body.areaCode, req.body.phone, req.body.purpose)),
  );
}
