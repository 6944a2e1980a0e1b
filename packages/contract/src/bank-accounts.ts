// Shapes of the customer's own bank accounts (SPEC §3, /bank/*): India (IFSC) and Brazil (PIX, CPF/CNPJ).
// Holds: strings at the edge, trimmed; the server checks IFSC and CPF/CNPJ with real libraries.
// Must not: carry validation rules that need a library (those live in the server's service).

import { z } from 'zod';

export const BANK_COUNTRIES = ['IN', 'BR'] as const;
/** A customer may keep this many live bank accounts. */
export const BANK_ACCOUNT_LIMIT = 10;
/** A new bank account locks withdrawals this long (DOMAIN.md). */
export const BANK_WITHDRAW_LOCK_MS = 24 * 3_600_000;

const text = (max: number) => z.string().trim().max(max).optional();

export const addBankBody = z.object({
  country: z.enum(BANK_COUNTRIES),
  holderName: z.string().trim().min(1).max(120),
  bankName: z.string().trim().min(1).max(120),
  accountNumber: z.string().trim().min(1).max(34),
  ifsc: text(11),
  branch: text(20),
  pixKey: text(120),
  taxId: text(20),
  /** The login password again, or the TOTP code when two-factor is on. */
  password: text(128),
  totpCode: text(6),
});

export const bankIdQuery = z.object({ id: z.coerce.number().int().positive() });
export const delBankBody = bankIdQuery;

export const bankAccountView = z.object({
  id: z.number(),
  country: z.enum(BANK_COUNTRIES),
  holderName: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  ifsc: z.string().nullable(),
  branch: z.string().nullable(),
  pixKey: z.string().nullable(),
  taxId: z.string().nullable(),
  createdAt: z.number(),
});
export type BankAccountView = z.infer<typeof bankAccountView>;

export const bankListView = z.object({
  items: z.array(bankAccountView),
  /** Epoch ms until which withdrawals stay locked after the newest bank account; 0 when not locked. */
  withdrawalsLockedUntil: z.number(),
});

export const bankTemplateQuery = z.object({ country: z.enum(BANK_COUNTRIES) });
export const bankTemplateView = z.object({
  country: z.enum(BANK_COUNTRIES),
  fields: z.array(z.object({ name: z.string(), required: z.boolean() })),
});
export type AddBankInput = z.input<typeof addBankBody>;
export type BankListView = z.infer<typeof bankListView>;
