// Loan calls (decision 0039): the customer's /user/credit/score (the score page), /user/point/change/log
// (every change of the score with its reason), /user/loan (the credit line, the open loan and, given an
// amount and days, every term of that loan before applying), /user/loan/apply (with the transaction
// password), /user/loan/order/list, /user/loan/repay; the console's review desk under /admin/loans
// (loans.review): the queue, approve (a second staff member above the threshold) or reject with a reason,
// and confirm a repayment.

import {
  creditScoreView,
  loanApplyBody,
  loanConfirmBody,
  loanDecideBody,
  loanInfoQuery,
  loanInfoView,
  loanRepayBody,
  loanView,
  pageQuery,
  recordId,
  scoreChangeView,
  staffLoansQuery,
  staffLoanView,
} from '@bourse/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken, guard } from '../../http/auth.ts';
import { done, ok, okEnvelope } from '../../http/envelope.ts';
import type { Accounts } from '../accounts/service.ts';
import type { Staff } from '../staff/service.ts';
import type { Loans } from './service.ts';

export function loanRoutes(app: FastifyInstance, d: { accounts: Accounts; loans: Loans; staff: Staff }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Loans'];
  const signedIn = guard((req) => d.accounts.authenticate(bearerToken(req)));
  const reviewer = guard((req) => d.staff.authenticate(bearerToken(req), 'loans.review'));

  r.get(
    '/user/credit/score',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: 'The credit score by the published formula: each factor’s points, and the limit it gives.',
        response: { 200: okEnvelope(creditScoreView) },
      },
    },
    async (req) => ok(await d.loans.creditScore((await signedIn(req)).user.id)),
  );
  // SPEC lists it under POST (form-encoded page and limit); GET answers the same for a plain link.
  const changeLog = {
    onRequest: signedIn.first,
    schema: {
      tags,
      description: 'Every change of the credit score, newest first, with the factor that caused it.',
      response: { 200: okEnvelope(z.object({ items: z.array(scoreChangeView) })) },
    },
  };
  r.post('/user/point/change/log', { ...changeLog, schema: { ...changeLog.schema, body: pageQuery } }, async (req) => {
    const { user } = await signedIn(req);
    return ok({ items: await d.loans.scoreChanges(user.id, req.body.page, req.body.limit) });
  });
  r.get(
    '/user/point/change/log',
    { ...changeLog, schema: { ...changeLog.schema, querystring: pageQuery } },
    async (req) => {
      const { user } = await signedIn(req);
      return ok({ items: await d.loans.scoreChanges(user.id, req.query.page, req.query.limit) });
    },
  );
  r.get(
    '/user/loan',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'The credit line (score, limit, periods, rates), the open loan, and — given amount and days — every term of that loan: interest, actual amount, repayment amount, overdue rate. Nothing is written.',
        querystring: loanInfoQuery,
        response: { 200: okEnvelope(loanInfoView) },
      },
    },
    async (req) => ok(await d.loans.info((await signedIn(req)).user.id, req.query)),
  );
  r.post(
    '/user/loan/apply',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description: 'Applies for a loan within the credit line after checking the 6-digit transaction password.',
        body: loanApplyBody,
        response: { 200: okEnvelope(loanView) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      await d.accounts.checkPin(user, 'trade', req.body.password);
      return done(req, 'loan_applied', await d.loans.apply(user.id, req.body));
    },
  );
  r.get(
    '/user/loan/order/list',
    {
      onRequest: signedIn.first,
      schema: { tags, response: { 200: okEnvelope(z.object({ items: z.array(loanView) })) } },
    },
    async (req) => ok({ items: await d.loans.list((await signedIn(req)).user.id) }),
  );
  r.get(
    '/user/loan/:id',
    {
      onRequest: signedIn.first,
      schema: { tags, params: z.object({ id: recordId() }), response: { 200: okEnvelope(loanView) } },
    },
    async (req) => ok(await d.loans.loanOf((await signedIn(req)).user.id, req.params.id, true)),
  );
  r.post(
    '/user/loan/repay',
    {
      onRequest: signedIn.first,
      schema: {
        tags,
        description:
          'Repays a loan in progress: principal and interest so far are held from the stock wallet until staff confirm the repayment.',
        body: loanRepayBody,
        response: { 200: okEnvelope(loanView) },
      },
    },
    async (req) => {
      const { user } = await signedIn(req);
      await d.accounts.checkPin(user, 'trade', req.body.password);
      return done(req, 'loan_repayment_submitted', await d.loans.requestRepayment(user.id, req.body.id));
    },
  );

  // --- the console ------------------------------------------------------------------------------------

  const staffTags = ['staff'];
  r.get(
    '/admin/loans',
    {
      onRequest: reviewer.first,
      schema: {
        tags: staffTags,
        querystring: staffLoansQuery,
        response: { 200: okEnvelope(z.object({ items: z.array(staffLoanView) })) },
      },
    },
    async (req) => {
      await reviewer(req);
      return ok({ items: await d.loans.staffList(req.query.status) });
    },
  );
  r.post(
    '/admin/loans/:id/decide',
    {
      onRequest: reviewer.first,
      schema: {
        tags: staffTags,
        params: z.object({ id: recordId() }),
        body: loanDecideBody,
        response: { 200: okEnvelope(staffLoanView) },
      },
    },
    async (req) => {
      const who = await reviewer(req);
      return done(
        req,
        'modified',
        await d.loans.decide(who.staff.id, req.params.id, req.body.decision, req.body.reason),
      );
    },
  );
  r.post(
    '/admin/loans/:id/confirm-repayment',
    {
      onRequest: reviewer.first,
      schema: {
        tags: staffTags,
        params: z.object({ id: recordId() }),
        body: loanConfirmBody,
        response: { 200: okEnvelope(staffLoanView) },
      },
    },
    async (req) => {
      const who = await reviewer(req);
      return done(req, 'modified', await d.loans.confirmRepayment(who.staff.id, req.params.id, req.body.reason));
    },
  );
}
