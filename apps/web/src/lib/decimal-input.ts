// What the user types into a price or quantity box, kept to a plain decimal (shared by the stock and the
// crypto order forms).

/** Keeps what the user types to digits and one decimal point, at most `maxDecimals` after it. */
export function sanitizeDecimalInput(text: string, maxDecimals: number): string {
  let cleaned = text.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const dot = cleaned.indexOf('.');
  if (dot >= 0) {
    cleaned = cleaned.slice(0, dot + 1) + cleaned.slice(dot + 1).replace(/\./g, '');
    if (maxDecimals === 0) cleaned = cleaned.slice(0, dot);
    else cleaned = cleaned.slice(0, dot + 1 + maxDecimals);
  }
  return cleaned;
}
