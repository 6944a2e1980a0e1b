// An expected rejection travelling from a service to the one place that maps it to HTTP. It carries a
// catalogue code (and, for validation, a code per field); the message is chosen by the request's language.

import type { ErrorCode } from '@bourse/contract';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, ErrorCode> | undefined;
  constructor(code: ErrorCode, fields?: Record<string, ErrorCode>) {
    super(code);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
  }
}

/** Rejects with a code tied to one field (shown under that field and as the toast). */
export const fieldError = (field: string, code: ErrorCode) => new AppError(code, { [field]: code });
