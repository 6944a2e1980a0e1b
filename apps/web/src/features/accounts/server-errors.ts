// Shows a refused request's messages where they belong: per-field messages under their fields (the
// typed values stay), known rejection codes under the matching field, anything else in a banner.
import type { ErrorCode } from '@bourse/contract';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { ApiError } from '../../app/request.ts';

/** Which field a field-less rejection code belongs to. */
const fieldOfError: Partial<Record<ErrorCode, string>> = {
  captcha_incorrect: 'captchaCode',
  captcha_expired: 'captchaCode',
  password_mismatch: 'confirmPassword',
  phone_invalid: 'phone',
  phone_taken: 'phone',
  password_length: 'password',
  invite_code_required: 'inviteCode',
  invite_code_invalid: 'inviteCode',
  agreement_required: 'agree',
  sms_code_incorrect: 'smsCode',
  totp_required: 'totpCode',
  totp_incorrect: 'totpCode',
};

/** Returns the message for the banner, or null when every message went under a field. */
export function applyServerErrors(form: FormInstance, error: unknown, fieldNames: readonly string[]): string | null {
  if (!(error instanceof ApiError)) return null; // network errors are already toasted
  const known = new Set(fieldNames);
  const placed = Object.entries(error.fields).filter(([name]) => known.has(name));
  if (placed.length > 0) {
    form.setFields(placed.map(([name, message]) => ({ name, errors: [message] })));
    const unplaced = Object.keys(error.fields).length - placed.length;
    return unplaced > 0 ? error.message : null;
  }
  const field = error.error ? fieldOfError[error.error] : undefined;
  if (field && known.has(field)) {
    form.setFields([{ name: field, errors: [error.message] }]);
    return null;
  }
  return error.message;
}
