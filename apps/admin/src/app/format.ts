// Display helpers for server values: dates and exact decimal amounts in the chosen language, statuses
// whose wire shape may be a number or a word, and the free-form `detail` object of an audit entry. Pure;
// no React.

import type { CustomerUserView } from '@bourse/contract';
import { decimalPlaces, MAX_SCALE, tryParseDecimal } from '@bourse/money';

export function formatDateTime(iso: string | null | undefined, language: string): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

/**
 * A decimal string from the server ("-2000000.00") grouped and punctuated for `language` ("-2.000.000,00"
 * in pt-BR), digit for digit: it never passes through a float. Anything else is shown as it came.
 */
export function formatDecimalText(text: string, language: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return text;
  const [, sign, whole, fraction] = match;
  const format = new Intl.NumberFormat(language);
  const decimal = format.formatToParts(0.5).find((part) => part.type === 'decimal')?.value ?? '.';
  const grouped = format.format(BigInt(whole as string));
  return `${sign}${grouped}${fraction === undefined ? '' : `${decimal}${fraction}`}`;
}

/** Whether a decimal string is zero ("0", "0.00", "-0.000"), read by the money package's codec; malformed text is not. */
export function isZeroDecimal(text: string): boolean {
  const scale = decimalPlaces(text);
  if (scale > MAX_SCALE) return false;
  const parsed = tryParseDecimal(text, scale);
  return parsed.ok && parsed.minor === 0n;
}

/** Customer status: 0 is blocked, anything else active (SPEC: user status 0 = blocked). */
export function isUserBlocked(status: number | string): boolean {
  return Number(status) === 0;
}

/** Staff status arrives as 1/0 or as a word; only an explicit "disabled" form counts as disabled. */
export function isStaffDisabled(status: number | string): boolean {
  if (typeof status === 'number') return status === 0;
  return ['0', 'disabled', 'inactive'].includes(status.toLowerCase());
}

/** The contract's idStatus values (a copy of the values only: the contract's own would bundle zod). */
export type KycState = CustomerUserView['idStatus'];
export const KYC_STATES = ['none', 'pending', 'succ', 'fail'] as const satisfies readonly KycState[];

/** The KYC state name for a user's idStatus, or null when the server sent something else. */
export function kycState(idStatus: number | string | null | undefined): KycState | null {
  if (typeof idStatus === 'string' && (KYC_STATES as readonly string[]).includes(idStatus)) {
    return idStatus as KycState;
  }
  return null;
}

/** Translation key for an audit action code: `user.status` → `auditActions.user_status`. */
export function auditActionKey(action: string): string {
  return `auditActions.${action.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** One "key: value" line per detail field; nested values are shown as compact JSON. */
export function detailLines(detail: unknown): string[] {
  if (detail === null || detail === undefined) return [];
  if (typeof detail !== 'object' || Array.isArray(detail)) return [JSON.stringify(detail)];
  return Object.entries(detail as Record<string, unknown>).map(([key, value]) => {
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    return `${key}: ${shown}`;
  });
}
