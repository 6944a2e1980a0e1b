// Field builders shared by every request schema. Bodies may arrive form-encoded (SPEC §7), so every
// field is read as a string; each issue's message is a catalogue code that the server translates.

import { z } from 'zod';
import { normalizePhone } from './phone.ts';

const requiredOrInvalid = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === '' ? 'field_required' : 'field_invalid';

/** A required, trimmed, non-empty string of at most `max` characters. */
export const text = (max = 200) =>
  z
    .string({ error: requiredOrInvalid })
    .trim()
    .min(1, { error: 'field_required' })
    .max(max, { error: 'field_invalid' });

export const optionalText = (max = 200) =>
  z
    .string({ error: 'field_invalid' })
    .trim()
    .max(max, { error: 'field_invalid' })
    .optional()
    .transform((v) => (v ? v : undefined));

/** Login passwords: 6 to 20 characters (SPEC §5). Not trimmed: spaces are part of a password. */
export const loginPassword = () =>
  z.string({ error: requiredOrInvalid }).min(6, { error: 'password_length' }).max(20, { error: 'password_length' });

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

/** A checkbox as forms send it: "1", "true", "on" or true. */
export const agreed = () =>
  z
    .union([z.string(), z.boolean()], { error: 'agreement_required' })
    .optional()
    .refine((v) => v === true || v === '1' || v === 'true' || v === 'on', { error: 'agreement_required' });

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

export const pageQuery = z.object({
  page: z.coerce.number({ error: 'field_invalid' }).int().min(1).max(10_000).default(1),
  limit: z.coerce.number({ error: 'field_invalid' }).int().min(1).max(100).default(20),
});
