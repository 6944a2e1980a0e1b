// Field builders shared by every request schema. Bodies may arrive form-encoded (SPEC §7), so every
// field is read as a string; each issue's message is a catalogue code that the server translates.

import { z } from 'zod';
import { normalizePhone } from './phone.ts';

const requiredOrInvalid = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === '' ? 'field_required' : 'field_invalid';

/**
 * Control characters other than tab and line breaks: invisible on screen, able to rewrite a terminal
 * that shows the logs, and PostgreSQL refuses NUL (a text holding one failed with internal_error; in an
 * order's clientOrderId it failed the engine's journal commit and stopped the server).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/**
 * A UTF-16 surrogate without its pair. UTF-8 has no form for one, so a database stores U+FFFD instead: a
 * text other than the one checked or hashed (a staff reason so stored broke the audit log's hash chain
 * for good). A regular expression rather than String.isWellFormed, which older phones' browsers lack.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Every free-text field a person sends is refused (field_invalid) unless this holds. */
export const isPlainText = (v: string) => !CONTROL_CHARACTERS.test(v) && !LONE_SURROGATE.test(v);

/** A required, trimmed, non-empty plain text (isPlainText) of at most `max` characters. */
export const text = (max = 200) =>
  z
    .string({ error: requiredOrInvalid })
    .trim()
    .min(1, { error: 'field_required' })
    .max(max, { error: 'field_invalid' })
    .refine(isPlainText, { error: 'field_invalid' });

export const optionalText = (max = 200) =>
  z
    .string({ error: 'field_invalid' })
    .trim()
    .max(max, { error: 'field_invalid' })
    .refine(isPlainText, { error: 'field_invalid' })
    .optional()
    .transform((v) => (v ? v : undefined));

/**
 * A new login password: 6 to 20 characters (SPEC §5). Not trimmed: spaces are part of a password, as is
 * any other character but the control characters every text refuses (isPlainText): a password is only
 * hashed, but no password field types one, so a password holding one could not be typed to sign in.
 */
export const loginPassword = () =>
  z
    .string({ error: requiredOrInvalid })
    .min(6, { error: 'password_length' })
    .max(20, { error: 'password_length' })
    .refine(isPlainText, { error: 'field_invalid' });

/** Transaction and withdrawal passwords: exactly six digits (SPEC §5). */
export const pin = () => z.string({ error: requiredOrInvalid }).regex(/^\d{6}$/, { error: 'pin_format' });

export const totpCode = () => z.string({ error: requiredOrInvalid }).regex(/^\d{6}$/, { error: 'totp_incorrect' });

export const areaCode = () =>
  z
    .string({ error: 'field_invalid' })
    .trim()
    .regex(/^\+?\d{1,4}$/, { error: 'phone_invalid' })
    .default('91')
    .transform((v) => v.replace(/^\+/, ''));

/**
 * A checkbox as forms send it: "1", "true", "on" or true. Required: a form leaves an unticked box out,
 * so a missing field is no agreement (SPEC §5), refused like "0".
 */
export const agreed = () =>
  z
    .union([z.string(), z.boolean()], { error: 'agreement_required' })
    .refine((v) => v === true || v === '1' || v === 'true' || v === 'on', { error: 'agreement_required' });

/**
 * An optional yes/no as a form sends it ("true"/"false", "1"/"0", "on") or as JSON (true/false); absent
 * is `fallback`. Form-encoded clients (the customer app) cannot send a JSON boolean.
 */
export const formBoolean = (fallback = false) =>
  z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on'])], { error: 'field_invalid' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === true || v === 'true' || v === '1' || v === 'on'));

export const email = () =>
  z
    .string({ error: requiredOrInvalid })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'email_invalid' }).max(254, { error: 'email_invalid' }));

/** Adds a phone_invalid issue on `phone` unless areaCode + phone is a valid mobile number. */
export function checkPhone(value: { areaCode: string; phone: string }, ctx: z.RefinementCtx): void {
  if (value.phone && normalizePhone(value.areaCode, value.phone) === null) {
    ctx.addIssue({ code: 'custom', path: ['phone'], message: 'phone_invalid' });
  }
}

/** Adds password_mismatch on `confirmPassword` unless both entries match. */
export function checkConfirmation(value: { password: string; confirmPassword: string }, ctx: z.RefinementCtx): void {
  if (value.password !== value.confirmPassword) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'password_mismatch' });
  }
}

/**
 * A whole number as JSON or a form field sends it: a JSON integer, or a string of decimal digits
 * without leading zeros, from `min` to `max`; anything else is field_invalid. Not z.coerce: it read
 * null, "", false and [] as 0, true and [1] as 1, and "1e3", "0x10", " 12 " and "1.0" as numbers, so a
 * mistyped request named a record, a page or a limit that nobody wrote.
 */
export const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .union(
      [
        z.number().int({ error: 'field_invalid' }),
        z
          .string()
          .regex(/^(0|[1-9]\d{0,15})$/)
          .transform(Number),
      ],
      { error: 'field_invalid' },
    )
    .pipe(z.number().min(min, { error: 'field_invalid' }).max(max, { error: 'field_invalid' }));

/** A stored record's id (a user, an order, a content item): a whole number from 1. */
export const recordId = () => wholeNumber(1);

export const pageQuery = z.object({
  page: wholeNumber(1, 10_000).default(1),
  limit: wholeNumber(1, 100).default(20),
});
