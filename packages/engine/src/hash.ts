// Owns the state hash: 64-bit FNV-1a over UTF-16 code units.
// Must hold: the same string always gives the same 16-hex-digit hash on every platform.
// Must not: use node:crypto or anything outside plain arithmetic.
//
// The 64-bit state is kept in four 16-bit limbs so that every product stays a small integer (the
// multiply by the FNV prime 2^40 + 0x1b3 is a multiply by 0x1b3 plus a shift by 40 bits): about ten
// times faster than splitting it in two 32-bit halves with divisions, which matters because the host
// hashes the whole state (a few hundred MB of JSON) at every snapshot and start-up.

const PRIME_LO = 0x1b3;

export function fnv1a64(text: string): string {
  // Offset basis 0xcbf29ce484222325.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < text.length; i++) {
    h0 ^= text.charCodeAt(i);
    const t0 = h0 * PRIME_LO;
    let t1 = h1 * PRIME_LO;
    let t2 = h2 * PRIME_LO + (h0 << 8);
    const t3 = h3 * PRIME_LO + (h1 << 8);
    t1 += t0 >>> 16;
    h0 = t0 & 0xffff;
    t2 += t1 >>> 16;
    h1 = t1 & 0xffff;
    h3 = (t3 + (t2 >>> 16)) & 0xffff;
    h2 = t2 & 0xffff;
  }
  const hex = (n: number) => n.toString(16).padStart(4, '0');
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}
