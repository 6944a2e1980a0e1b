// Shapes of the stock sentiment vote (SPEC stock/vote: POST /stock/index/vote) and of the page whose
// address staff set per stock or for all stocks (SPEC stock/voteUrl: GET /index/vote/info). A vote is
// an opinion a customer shares with other customers: nothing that sets prices reads it (decision 0037).

import { z } from 'zod';
import { text } from './fields.ts';
import { actionReason } from './staff.ts';

export const VOTE_SIDES = ['bullish', 'bearish'] as const;
export type VoteSide = (typeof VOTE_SIDES)[number];

/** How many trading days the tallies go back, today included. */
export const VOTE_RECENT_DAYS = 5;

export const voteQuery = z.object({ symbol: text(40) });
export const voteBody = z.object({
  symbol: text(40),
  side: z.enum(VOTE_SIDES, {
    error: (issue) => (issue.input === undefined || issue.input === '' ? 'field_required' : 'field_invalid'),
  }),
});
export type VoteBody = z.input<typeof voteBody>;

/** One trading day's count of votes on a stock. */
export const voteTally = z.object({ day: z.string(), bullish: z.number().int(), bearish: z.number().int() });
export type VoteTally = z.infer<typeof voteTally>;

/**
 * A stock's vote as a customer sees it: the trading day a vote now counts for (the exchange's calendar:
 * on a weekend or holiday, the next trading day), today's tally, the recent days' (newest first, today
 * included, days without a vote counted as zero) and the customer's own vote for that day.
 */
export const voteView = z.object({
  symbol: z.string(),
  name: z.string(),
  exchange: z.string(),
  day: z.string(),
  today: voteTally,
  recent: z.array(voteTally),
  mine: z.enum(VOTE_SIDES).nullable(),
});
export type VoteView = z.infer<typeof voteView>;

/** The vote page's address for a stock (its own, else the one for all stocks), and whether it may be framed. */
export const voteUrlQuery = z.object({ symbol: text(40).optional() });
export const voteUrlView = z.object({
  url: z.string().nullable(),
  host: z.string().nullable(),
  /** Set for a stock of its own ("stock") or for all stocks ("all"); null when none is set. */
  scope: z.enum(['stock', 'all']).nullable(),
  /** The host is on the deployment's allow-list (VOTE_FRAME_HOSTS): the app shows it in a frame. */
  framable: z.boolean(),
});
export type VoteUrlView = z.infer<typeof voteUrlView>;

// --- staff ---------------------------------------------------------------------------------------

/** An https address of at most 500 characters, without spaces or quotes; "" clears the setting. */
const VOTE_URL = /^https:\/\/[^\s"'<>\\]+$/;
export const voteUrlSetBody = z.object({
  /** A stock's id or symbol, or empty for the address used by every stock without one of its own. */
  symbol: z
    .string({ error: 'field_invalid' })
    .trim()
    .max(40, { error: 'field_invalid' })
    .optional()
    .transform((v) => v ?? ''),
  url: z
    .string({ error: 'field_invalid' })
    .trim()
    .max(500, { error: 'vote_url_invalid' })
    .refine((v) => v === '' || (VOTE_URL.test(v) && URL.canParse(v)), { error: 'vote_url_invalid' }),
  reason: actionReason(),
});
export type VoteUrlSetBody = z.input<typeof voteUrlSetBody>;

export const staffVoteUrlView = z.object({
  /** The instrument id, or "" for the address of every stock without one of its own. */
  symbol: z.string(),
  url: z.string(),
  framable: z.boolean(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type StaffVoteUrlView = z.infer<typeof staffVoteUrlView>;

export const staffVoteTallyView = z.object({
  symbol: z.string(),
  name: z.string(),
  day: z.string(),
  bullish: z.number().int(),
  bearish: z.number().int(),
});
export type StaffVoteTallyView = z.infer<typeof staffVoteTallyView>;

export const staffVoteOverview = z.object({
  urls: z.array(staffVoteUrlView),
  frameHosts: z.array(z.string()),
  /** The stocks voted on during the last few trading days, most votes first (at most 50 rows). */
  tallies: z.array(staffVoteTallyView),
});
export type StaffVoteOverview = z.infer<typeof staffVoteOverview>;
