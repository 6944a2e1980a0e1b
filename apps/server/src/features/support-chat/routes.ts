// Support chat calls: the customer's GET /user/chat (their conversation and a page of history),
// POST /user/chat/message (text and/or an image; idempotent by clientId), POST /user/chat/read,
// GET /user/chat/unread (the entry's badge) and GET /user/chat/image/:id; the desk's /admin/chat/*
// (chat.reply): queues, a conversation, take, release, reply, read, close, images.

import type { StaffChatView } from '@bourse/contract';
import {
  chatHistoryQuery,
  chatMessage,
  chatMessageBody,
  chatReadBody,
  chatUnreadView,
  chatView,
  staffChatCloseBody,
  staffChatList,
  staffChatListQuery,
  staffChatReadBody,
  staffChatReplyBody,
  staffChatView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope, requestLang } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { SupportChat } from './service.ts';

// One image of at most 5 MB, base64-encoded (4/3 larger), plus the text.
const BODY_LIMIT = 8 * 1024 * 1024;
const idParams = z.object({ id: z.coerce.number().int().positive() });

export function supportChatRoutes(app: FastifyInstance, d: { accounts: Accounts; chat: SupportChat; staff: Staff }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['support chat'];
  const signedIn = guard((req) => d.accounts.authenticate(bearerToken(req)));
  const desk = guard((req) => d.staff.authenticate(bearerToken(req), 'chat.reply'));
  const jpeg = { 'content-type': 'image/jpeg', 'cache-control': 'private, no-store' };

  r.get(
    '/user/chat',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: chatHistoryQuery, response: { 200: okEnvelope(chatView) } },
    },
    async (req) => ok(await d.chat.view((await signedIn(req)).user.id, req.query.before)),
  );
  r.get(
    '/user/chat/unread',
    { onRequest: signedIn.first, schema: { tags, response: { 200: okEnvelope(chatUnreadView) } } },
    async (req) => ok({ unread: await d.chat.unread((await signedIn(req)).user.id) }),
  );
  r.post(
    '/user/chat/message',
    {
      bodyLimit: BODY_LIMIT,
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Text (at most 2,000 characters) and/or a JPEG, PNG or WebP image (checked and re-encoded as KYC photos). Sending the same clientId again returns the stored message. At most 20 messages a minute.',
        body: chatMessageBody,
        response: { 200: okEnvelope(chatMessage) },
      },
    },
    async (req) => done(req, 'sent', await d.chat.send((await signedIn(req)).user.id, requestLang(req), req.body)),
  );
  r.post(
    '/user/chat/read',
    { onRequest: signedIn.first, schema: { tags, body: chatReadBody, response: { 200: okEnvelope(chatUnreadView) } } },
    async (req) => ok({ unread: await d.chat.read((await signedIn(req)).user.id, req.body.upTo) }),
  );
  r.get(
    '/user/chat/image/:id',
    { onRequest: signedIn.first, schema: { tags, params: idParams } },
    async (req, reply) => {
      const image = await d.chat.image(req.params.id, (await signedIn(req)).user.id);
      return reply.headers(jpeg).send(image);
    },
  );

  const staffTags = ['staff'];
  r.get(
    '/admin/chat',
    {
      onRequest: desk.first,
      schema: { tags: staffTags, querystring: staffChatListQuery, response: { 200: okEnvelope(staffChatList) } },
    },
    async (req) => ok(await d.chat.list((await desk(req)).staff.id, req.query.queue)),
  );
  r.get(
    '/admin/chat/:id',
    {
      onRequest: desk.first,
      schema: {
        tags: staffTags,
        params: idParams,
        querystring: chatHistoryQuery,
        response: { 200: okEnvelope(staffChatView) },
      },
    },
    async (req) => {
      await desk(req);
      return ok(await d.chat.conversation(req.params.id, req.query.before));
    },
  );
  r.get(
    '/admin/chat/image/:id',
    { onRequest: desk.first, schema: { tags: staffTags, params: idParams } },
    async (req, reply) => {
      await desk(req);
      return reply.headers(jpeg).send(await d.chat.image(req.params.id, null));
    },
  );
  const action = (path: string, run: (auth: Awaited<ReturnType<typeof desk>>, id: number) => Promise<StaffChatView>) =>
    r.post(
      `/admin/chat/:id/${path}`,
      {
        onRequest: desk.first,
        schema: { tags: staffTags, params: idParams, response: { 200: okEnvelope(staffChatView) } },
      },
      async (req) => done(req, 'modified', await run(await desk(req), req.params.id)),
    );
  action('assign', (auth, id) => d.chat.assign(auth, id));
  action('release', (auth, id) => d.chat.release(auth, id));
  r.post(
    '/admin/chat/:id/reply',
    {
      onRequest: desk.first,
      schema: {
        tags: staffTags,
        params: idParams,
        body: staffChatReplyBody,
        response: { 200: okEnvelope(staffChatView) },
      },
    },
    async (req) => done(req, 'sent', await d.chat.reply(await desk(req), req.params.id, req.body)),
  );
  r.post(
    '/admin/chat/:id/read',
    {
      onRequest: desk.first,
      schema: {
        tags: staffTags,
        params: idParams,
        body: staffChatReadBody,
        response: { 200: okEnvelope(staffChatView) },
      },
    },
    async (req) => {
      await desk(req);
      return ok(await d.chat.staffRead(req.params.id, req.body.upTo));
    },
  );
  r.post(
    '/admin/chat/:id/close',
    {
      onRequest: desk.first,
      schema: {
        tags: staffTags,
        params: idParams,
        body: staffChatCloseBody,
        response: { 200: okEnvelope(staffChatView) },
      },
    },
    async (req) => done(req, 'modified', await d.chat.close(await desk(req), req.params.id, req.body.reason)),
  );
}
