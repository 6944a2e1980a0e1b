// HTTP routes of news, notices, ads and the message centre. Public: /index/ads, /index/notice(/info),
// /index/news(/info), answered in the request's language. Signed-in customers: /user/notice(/info) and
// /user/notice/read; /index/page (the pages of fixed text staff edit). Staff with content.manage:
// /admin/content/* (with /admin/content/pages) and /admin/messages/*.

import {
  adminContentPageView,
  adminContentView,
  adminMessageView,
  adView,
  contentCreateBody,
  contentIdBody,
  contentListQuery,
  contentPageQuery,
  contentPageSetBody,
  contentPageView,
  contentUnpublishBody,
  contentUpdateBody,
  idQuery,
  messageCentre,
  messageCentreQuery,
  messageInfoQuery,
  messageReadBody,
  messageReadResult,
  messageSendBody,
  messageSentView,
  messageView,
  newsArticle,
  newsQuery,
  newsView,
  noticeArticle,
  noticeListQuery,
  noticeView,
  sentMessagesQuery,
} from '@bourse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { Content } from './service.ts';

const paged = <T extends z.ZodType>(item: T) => okEnvelope(z.object({ items: z.array(item), total: z.number() }));

export function contentRoutes(app: FastifyInstance, deps: { content: Content; accounts: Accounts; staff: Staff }) {
  const { content, accounts, staff } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const customer = guard((request) => accounts.authenticate(bearerToken(request)));
  const signedIn = Object.assign(async (request: FastifyRequest) => (await customer(request)).user, customer);
  const asEditor = guard((request) => staff.authenticate(bearerToken(request), 'content.manage'));

  // --- public feed ---
  const tags = ['content'];
  r.get(
    '/index/ads',
    { schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(adView) })) } } },
    async (req) => ok({ items: await content.ads(req.lang) }),
  );
  r.get(
    '/index/notice',
    {
      schema: {
        tags,
        querystring: noticeListQuery,
        response: { 200: okEnvelope(z.object({ items: z.array(noticeView) })) },
      },
    },
    async (req) => ok({ items: await content.notices(req.lang, req.query.limit) }),
  );
  r.get(
    '/index/notice/info',
    { schema: { tags, querystring: idQuery, response: { 200: okEnvelope(noticeArticle) } } },
    async (req) => ok(await content.notice(req.lang, req.query.id)),
  );
  r.get('/index/news', { schema: { tags, querystring: newsQuery, response: { 200: paged(newsView) } } }, async (req) =>
    ok(await content.news(req.lang, req.query.page, req.query.limit)),
  );
  r.get(
    '/index/news/info',
    { schema: { tags, querystring: idQuery, response: { 200: okEnvelope(newsArticle) } } },
    async (req) => ok(await content.newsArticle(req.lang, req.query.id)),
  );

  r.get(
    '/index/page',
    {
      schema: {
        tags,
        description: 'A page of fixed text staff edit (companyIntroduction, loanService), in the request language.',
        querystring: contentPageQuery,
        response: { 200: okEnvelope(contentPageView) },
      },
    },
    async (req) => ok(await content.page(req.query.slug, req.lang)),
  );

  // --- the signed-in customer's message centre ---
  r.get(
    '/user/notice',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: messageCentreQuery, response: { 200: okEnvelope(messageCentre) } },
    },
    async (req) => ok(await content.messageCentre((await signedIn(req)).id, req.lang, req.query)),
  );
  r.get(
    '/user/notice/info',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: messageInfoQuery, response: { 200: okEnvelope(messageView) } },
    },
    async (req) => ok(await content.messageInfo((await signedIn(req)).id, req.lang, req.query.kind, req.query.id)),
  );
  r.post(
    '/user/notice/read',
    {
      onRequest: signedIn.first,
      schema: { tags, body: messageReadBody, response: { 200: okEnvelope(messageReadResult) } },
    },
    async (req) => ok({ unread: await content.markRead((await signedIn(req)).id, req.body) }),
  );

  // --- staff ---
  const staffTags = ['staff'];
  r.get(
    '/admin/content/pages',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, response: { 200: okEnvelope(z.object({ items: z.array(adminContentPageView) })) } },
    },
    async (req) => {
      await asEditor(req);
      return ok({ items: await content.pages() });
    },
  );
  r.post(
    '/admin/content/pages/save',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, body: contentPageSetBody, response: { 200: okEnvelope(adminContentPageView) } },
    },
    async (req) => done(req, 'modified', await content.setPage(await asEditor(req), req.body)),
  );
  r.get(
    '/admin/content',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, querystring: contentListQuery, response: { 200: paged(adminContentView) } },
    },
    async (req) => {
      await asEditor(req);
      return ok(await content.list(req.query));
    },
  );
  r.get(
    '/admin/content/info',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, querystring: idQuery, response: { 200: okEnvelope(adminContentView) } },
    },
    async (req) => {
      await asEditor(req);
      return ok(await content.get(req.query.id));
    },
  );
  r.post(
    '/admin/content/create',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, body: contentCreateBody, response: { 200: okEnvelope(adminContentView) } },
    },
    async (req) => done(req, 'submitted', await content.create(await asEditor(req), req.body)),
  );
  r.post(
    '/admin/content/update',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, body: contentUpdateBody, response: { 200: okEnvelope(adminContentView) } },
    },
    async (req) => done(req, 'modified', await content.update(await asEditor(req), req.body)),
  );
  r.post(
    '/admin/content/publish',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, body: contentIdBody, response: { 200: okEnvelope(adminContentView) } },
    },
    async (req) => done(req, 'modified', await content.publish(await asEditor(req), req.body.id)),
  );
  r.post(
    '/admin/content/unpublish',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, body: contentUnpublishBody, response: { 200: okEnvelope(adminContentView) } },
    },
    async (req) => done(req, 'modified', await content.unpublish(await asEditor(req), req.body.id, req.body.reason)),
  );
  r.get(
    '/admin/messages',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, querystring: sentMessagesQuery, response: { 200: paged(adminMessageView) } },
    },
    async (req) => {
      await asEditor(req);
      return ok(await content.sentMessages(req.query));
    },
  );
  r.post(
    '/admin/messages/send',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, body: messageSendBody, response: { 200: okEnvelope(messageSentView) } },
    },
    async (req) => done(req, 'sent', await content.sendMessage(await asEditor(req), req.body)),
  );
}
