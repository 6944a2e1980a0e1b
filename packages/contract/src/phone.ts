// Phone numbers: an area code (country calling code, default 91) and a national number, checked with
// libphonenumber-js's full metadata, stored in E.164. India additionally requires a 10-digit mobile
// starting 6-9 (DOMAIN.md), which the metadata's mobile check also enforces.

import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export const DEFAULT_AREA_CODE = '91';

/** Returns the E.164 form ("+919876543210") of a valid mobile number, or null. */
export function normalizePhone(areaCode: string, national: string): string | null {
  const code = areaCode.replace(/^\+/, '').trim();
  const digits = national.replace(/[\s-]/g, '');
  if (!/^\d{1,4}$/.test(code) || !/^\d{4,15}$/.test(digits)) return null;
  const parsed = parsePhoneNumberFromString(`+${code}${digits}`);
  if (!parsed?.isValid()) return null;
  const type = parsed.getType();
  if (type !== undefined && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return null;
  if (code === '91' && !/^[6-9]\d{9}$/.test(digits)) return null;
  return parsed.number;
}
