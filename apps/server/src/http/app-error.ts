// An expected rejection travelling from a service to the one place that maps it to HTTP. It carries a
// catalogue code (and, for validation, a code per field); the message is chosen by the request's language.

import type { ErrorCode, Lang } from '@bourse/contract';

/** The values a message's {placeholders} take, written in the request's language (a date, an amount…). */
export type MessageParams = (lang: Lang) => Readonly<Record<string, string>>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, ErrorCode> | undefined;
  readonly params: MessageParams | undefined;
  constructor(code: ErrorCode, fields?: Record<string, ErrorCode>, params?: MessageParams) {
    super(code);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
    this.params = params;
  }
}

/** Rejects with a code tied to one field (shown under that field and as the toast). */
export const fieldError = (field: string, code: ErrorCode, params?: MessageParams) =>
  new AppError(code, { [field]: code }, params);
