// Owns the state hash: 64-bit FNV-1a over UTF-16 code units, computed with two 32-bit halves.
// Must hold: the same string always gives the same 16-hex-digit hash on every platform.
// Must not: use node:crypto or anything outside plain arithmetic.

const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
/** FNV 64-bit prime is 2^40 + 0x1b3. */
const PRIME_LO = 0x1b3;

export function fnv1a64(text: string): string {
  let hi = OFFSET_HI;
  let lo = OFFSET_LO;
  for (let i = 0; i < text.length; i++) {
    lo = (lo ^ text.charCodeAt(i)) >>> 0;
    // (hi:lo) * (2^40 + 0x1b3) mod 2^64, in pieces that stay below 2^53.
    const low = lo * PRIME_LO;
    const carry = Math.floor(low / 0x100000000);
    hi = (hi * PRIME_LO + carry + ((lo << 8) >>> 0)) % 0x100000000;
    lo = low % 0x100000000;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}
