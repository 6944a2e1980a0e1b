// A Brazilian account's PIX key (Chave Pix): one of the five kinds the Central Bank allows (DOMAIN.md:
// CPF, CNPJ, e-mail, +55 phone or a random key), checked and stored in its canonical form so a
// payout to it is addressed the way the PIX directory (DICT) holds it.

import { normalizePhone } from '@bourse/contract';
import { cnpj, cpf } from 'cpf-cnpj-validator';

export type PixKeyKind = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The key's kind and canonical form, or null when it is none of the five kinds. */
export function parsePixKey(raw: string): { kind: PixKeyKind; key: string } | null {
  const key = raw.trim();
  if (key.length === 0 || key.length > 77) return null;
  if (key.includes('@')) return EMAIL.test(key) ? { kind: 'email', key: key.toLowerCase() } : null;
  if (EVP.test(key.toLowerCase())) return { kind: 'evp', key: key.toLowerCase() };
  if (key.startsWith('+')) {
    const digits = key.replace(/[\s()-]/g, '');
    if (!digits.startsWith('+55')) return null;
    const phone = normalizePhone('55', digits.slice(3));
    return phone ? { kind: 'phone', key: phone } : null;
  }
  const bare = key.replace(/[.\-/\s]/g, '').toUpperCase();
  if (/^\d{11}$/.test(bare)) return cpf.isValid(bare) ? { kind: 'cpf', key: bare } : null;
  if (/^[0-9A-Z]{12}\d{2}$/.test(bare)) return cnpj.isValid(bare) ? { kind: 'cnpj', key: bare } : null;
  return null;
}
