// Public calls the app makes before anyone signs in: deployment settings (/common/props, /common/prop)
// and the registration captcha's proof-of-work challenge. In paper mode with test hooks on, browser
// tests can read sandbox SMS codes; that route does not exist otherwise.

import { captchaView, type DeploymentProps, deploymentProps, normalizePhone } from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SandboxSms } from '../../adapters/sms/sandbox/sandbox.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import { ok, okEnvelope } from '../../http/envelope.ts';
import type { Captchas } from './captcha.ts';

export function deploymentPropsOf(config: Config): DeploymentProps {
  return {
    mode: config.mode,
    platformName: config.platformName,
    defaultAreaCode: '91',
    inviteCodeRequired: config.inviteCodeRequired,
    smsCodeRequired: config.smsCodeRequired,
    openAutoApply: config.openAutoApply,
    stockCountry: config.stockCountry,
    serviceSaleSmartly: config.serviceChatUrl,
  };
}

export function commonRoutes(
  app: FastifyInstance,
  deps: { config: Config; captchas: Captchas; sandboxSms: SandboxSms | null },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['common'];
  const props = deploymentPropsOf(deps.config);

  r.get('/common/props', { schema: { tags, response: { 200: okEnvelope(deploymentProps) } } }, async () => ok(props));
  r.get(
    '/common/prop',
    {
      schema: { tags, querystring: z.object({ key: z.string().max(64) }), response: { 200: okEnvelope(z.unknown()) } },
    },
    async (req) => {
      if (!Object.hasOwn(props, req.query.key)) throw new AppError('not_found');
      return ok(props[req.query.key as keyof DeploymentProps]);
    },
  );
  r.get('/common/captcha', { schema: { tags, response: { 200: okEnvelope(captchaView) } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(await deps.captchas.create());
  });

  if (!deps.config.testHooks) return;
  r.get(
    '/test/sms',
    { schema: { hide: true, querystring: z.object({ areaCode: z.string().default('91'), phone: z.string() }) } },
    async (req) => {
      const phone = normalizePhone(req.query.areaCode, req.query.phone);
      const code = phone ? deps.sandboxSms?.lastCodeFor(phone) : undefined;
      if (!code) throw new AppError('not_found');
      return ok({ code });
    },
  );
}
