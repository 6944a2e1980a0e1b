// Client-side phone checks per country code, so obvious typos are caught before a request; the
// server checks again and its answer wins.

export const areaCodes = [
  { code: '91', country: 'IN' },
  { code: '55', country: 'BR' },
  { code: '1', country: 'US' },
] as const;

const patterns: Record<string, RegExp> = {
  '91': /^[6-9]\d{9}$/,
  '55': /^[1-9]\d{9,10}$/,
  '1': /^[2-9]\d{9}$/,
};

export function isPhoneValid(areaCode: string, phone: string): boolean {
  const pattern = patterns[areaCode] ?? /^\d{5,15}$/;
  return pattern.test(phone);
}
