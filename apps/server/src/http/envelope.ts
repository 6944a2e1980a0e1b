// Maps every answer to SPEC §8's envelope in one place: success → {code: 0, msg, data}; an AppError →
// {code: -1001 (or -1000 for sessions), msg in the request's language, error, fields}, with a fitting
// HTTP status; request validation → field-level messages; anything else → a logged 500 that leaks nothing.

import {
  type ErrorCode,
  type ErrorEnvelope,
  errorMessage,
  errorStatus,
  isErrorCode,
  type Lang,
  pickLang,
  RESPONSE_CODE,
  type SuccessCode,
  successMessage,
} from '@bourse/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, type MessageParams } from './app-error.ts';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
}

const SESSION_CODES: ReadonlySet<ErrorCode> = new Set(['session_invalid', 'not_logged_in', 'account_blocked']);

/**
 * Fastify's refusals of a request body before any schema reads it, each with its own code: as a
 * generic field_invalid they named no field, and a client could not tell a body too large from a typo.
 */
const BODY_REFUSALS: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_body',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'malformed_body',
};

/** The response schema of a successful call: SPEC's envelope around `data`, for validation and OpenAPI. */
export const okEnvelope = <T extends z.ZodType>(data: T) => z.object({ code: z.literal(0), msg: z.string(), data });

/** A read's answer: the data, and no message of its own to show. */
export function ok<T>(data: T) {
  return { code: RESPONSE_CODE.ok, msg: 'success', data };
}

/** A completed action's answer, with SPEC §8's message for it ("modified"…) in the request's language. */
export function done<T>(request: FastifyRequest, what: SuccessCode, data: T) {
  return { code: RESPONSE_CODE.ok, msg: successMessage(what, request.lang ?? 'en-US'), data };
}

export function errorEnvelope(
  code: ErrorCode,
  lang: Lang,
  fields?: Record<string, ErrorCode>,
  params?: MessageParams,
): ErrorEnvelope {
  const values = params?.(lang);
  const body: ErrorEnvelope = {
    code: SESSION_CODES.has(code) ? RESPONSE_CODE.sessionInvalid : RESPONSE_CODE.message,
    msg: errorMessage(code, lang, values),
    data: null,
    error: code,
  };
  if (fields && Object.keys(fields).length > 0) {
    body.fields = Object.fromEntries(Object.entries(fields).map(([k, c]) => [k, errorMessage(c, lang, values)]));
  }
  return body;
}

export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  code: ErrorCode,
  fields?: Record<string, ErrorCode>,
  params?: MessageParams,
) {
  return reply.status(errorStatus(code)).send(errorEnvelope(code, request.lang ?? 'en-US', fields, params));
}

/** The language a request asks for: its `lang` header, else Accept-Language, else en-US. */
export function requestLang(request: FastifyRequest): Lang {
  const header = request.headers.lang;
  return pickLang(Array.isArray(header) ? header[0] : header, request.headers['accept-language']);
}

export function registerEnvelope(app: FastifyInstance): void {
  app.decorateRequest('lang', 'en-US');
  // A callback hook: an async one costs every request a promise and a turn of the microtask queue.
  app.addHook('onRequest', (request, _reply, done) => {
    request.lang = requestLang(request);
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendError(reply, request, error.code, error.fields, error.params);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, ErrorCode> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').split('/')[0] || 'body';
        const code: ErrorCode = isErrorCode(issue.message ?? '') ? (issue.message as ErrorCode) : 'field_invalid';
        fields[field] ??= code;
      }
      // The toast shows the first field's own message: "Phone number format is incorrect" says more
      // than "check the fields"; the rest are shown under their fields.
      const first = Object.values(fields)[0] ?? 'validation_failed';
      return sendError(
        reply,
        request,
        first === 'field_required' || first === 'field_invalid' ? 'validation_failed' : first,
        fields,
      );
    }
    if (error.statusCode === 429) return sendError(reply, request, 'too_many_requests');
    if (error.code && Object.hasOwn(BODY_REFUSALS, error.code)) {
      request.log.info({ err: error }, 'client error');
      return sendError(reply, request, BODY_REFUSALS[error.code]!);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return sendError(reply, request, error.statusCode === 404 ? 'not_found' : 'field_invalid');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, request, 'internal_error');
  });
}
