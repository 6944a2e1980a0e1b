// SPEC §8's response envelope: every answer is {code, msg, data}. A rejection also names its
// catalogue code in `error` and, for validation, a translated message per field in `fields`.

import { z } from 'zod';
import type { ErrorCode } from './errors.ts';

export const RESPONSE_CODE = { ok: 0, sessionInvalid: -1000, message: -1001 } as const;

export type OkEnvelope<T> = { code: 0; msg: string; data: T };
export type ErrorEnvelope = {
  code: -1000 | -1001;
  msg: string;
  data: null;
  error: ErrorCode;
  fields?: Record<string, string>;
};
export type Envelope<T> = OkEnvelope<T> | ErrorEnvelope;

/** A list answer's `data`: `{items}`, and `total` (all matches, not this page's) when it is paged. */
export type Items<T> = { items: T[] };
export type Paged<T> = Items<T> & { total: number };

/** The `data` of a call that only changes something and has nothing else to say. */
export const doneView = z.object({ done: z.literal(true) });
export type DoneView = z.infer<typeof doneView>;
