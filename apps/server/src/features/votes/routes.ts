// Stock sentiment vote calls: the customer's POST /stock/index/vote (cast a vote; SPEC §7) and GET
// /stock/index/vote (the tallies and their own vote), the public GET /index/vote/info (the vote page's
// address for a stock, SPEC stock/voteUrl), and the console's /admin/votes (content.manage): the
// addresses, with an audited reason, and the recent tallies.

import {
  staffVoteOverview,
  voteBody,
  voteQuery,
  voteUrlQuery,
  voteUrlSetBody,
  voteUrlView,
  voteView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { Votes } from './service.ts';

export function voteRoutes(app: FastifyInstance, d: { accounts: Accounts; votes: Votes; staff: Staff }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sentiment vote'];
  const signedIn = guard((req) => d.accounts.authenticate(bearerToken(req)));
  const asEditor = guard((req) => d.staff.authenticate(bearerToken(req), 'content.manage'));

  r.get(
    '/stock/index/vote',
    {
      onRequest: signedIn.first,
      schema: { tags, querystring: voteQuery, response: { 200: okEnvelope(voteView) } },
    },
    async (req) => ok(await d.votes.view((await signedIn(req)).user.id, req.query.symbol)),
  );
  r.post(
    '/stock/index/vote',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          "One bullish or bearish vote per customer, stock and trading day (the exchange's calendar; on a closed day the next trading day); a second vote the same day is refused with vote_already_cast. Opinion only: nothing that sets prices reads it.",
        body: voteBody,
        response: { 200: okEnvelope(voteView) },
      },
    },
    async (req) =>
      done(req, 'submitted', await d.votes.vote((await signedIn(req)).user.id, req.body.symbol, req.body.side)),
  );
  r.get(
    '/index/vote/info',
    { schema: { tags, querystring: voteUrlQuery, response: { 200: okEnvelope(voteUrlView) } } },
    async (req) => ok(await d.votes.voteUrl(req.query.symbol)),
  );

  const staffTags = ['staff'];
  r.get(
    '/admin/votes',
    { onRequest: asEditor.first, schema: { tags: staffTags, response: { 200: okEnvelope(staffVoteOverview) } } },
    async (req) => {
      await asEditor(req);
      return ok(await d.votes.overview());
    },
  );
  r.post(
    '/admin/votes/url',
    {
      onRequest: asEditor.first,
      schema: { tags: staffTags, body: voteUrlSetBody, response: { 200: okEnvelope(staffVoteOverview) } },
    },
    async (req) => done(req, 'modified', await d.votes.setVoteUrl(await asEditor(req), req.body)),
  );
}
