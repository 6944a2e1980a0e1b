// The customer's own bank accounts: add (after the password or TOTP again), list, read, soft delete.
// Holds: IFSC checked by `ifsc`, CPF/CNPJ by `cpf-cnpj-validator`; at most BANK_ACCOUNT_LIMIT live
// accounts; another customer's id answers not found. Must not: move money (withdrawals read the lock).

import { type addBankBody, BANK_ACCOUNT_LIMIT, type BankAccountView } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import ifsc from 'ifsc';
import type { z } from 'zod';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { checkLoginAllowed, clearLoginFailures, recordLoginFailure } from '../../platform/login-throttle.ts';
import { verifyPassword } from '../../platform/secrets.ts';
import { checkTotp } from '../../platform/totp.ts';
import type { UserRow } from '../accounts/repo.ts';
import { withdrawalsLockedUntil } from '../withdrawals/lock.ts';
import { parsePixKey } from './pix-key.ts';
import * as repo from './repo.ts';

const toView = (r: repo.BankAccountRow): BankAccountView => ({
  id: Number(r.id),
  country: r.country,
  holderName: r.holder_name,
  bankName: r.bank_name,
  accountNumber: r.account_number,
  ifsc: r.ifsc,
  branch: r.branch,
  pixKey: r.pix_key,
  taxId: r.tax_id,
  createdAt: Number(r.created_at),
});

/** Which fields each country's form asks for (/index/bank/tmpl). */
export const BANK_TEMPLATES = {
  IN: ['holderName', 'bankName', 'accountNumber', 'ifsc'],
  BR: ['holderName', 'bankName', 'branch', 'accountNumber', 'pixKey', 'taxId'],
} as const;

export class BankAccounts {
  readonly #db: Db;
  readonly #clock: Clock;
  constructor(deps: { db: Db; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  async list(user: UserRow) {
    const items = (await repo.listLive(this.#db, user.id)).map(toView);
    // The one lock rule of every withdrawal (features/withdrawals/lock.ts): bank accounts and addresses.
    return { items, withdrawalsLockedUntil: await withdrawalsLockedUntil(this.#db, user.id, this.#clock.now()) };
  }

  async info(user: UserRow, id: number) {
    const row = await repo.findLive(this.#db, user.id, id);
    if (!row) throw new AppError('bank_account_not_found');
    return toView(row);
  }

  async add(user: UserRow, input: z.output<typeof addBankBody>) {
    const fields = this.#checkFields(input);
    await this.#reauthenticate(user, input);
    const now = this.#clock.now();
    const id = await this.#db.transaction(async (tx) => {
      if ((await repo.listLive(tx, user.id)).length >= BANK_ACCOUNT_LIMIT) throw new AppError('bank_account_limit');
      return repo.insert(tx, { user_id: user.id, created_at: now, ...fields });
    });
    return this.info(user, id);
  }

  async del(user: UserRow, id: number) {
    const n = await repo.softDelete(this.#db, user.id, id, this.#clock.now());
    if (!n) throw new AppError('bank_account_not_found');
  }

  #checkFields(input: z.output<typeof addBankBody>) {
    const base = {
      country: input.country,
      holder_name: input.holderName,
      bank_name: input.bankName,
      account_number: input.accountNumber,
    };
    if (input.country === 'IN') {
      const code = (input.ifsc ?? '').toUpperCase();
      if (!code) throw fieldError('ifsc', 'field_required');
      if (!ifsc.validate(code)) throw fieldError('ifsc', 'ifsc_invalid');
      return { ...base, ifsc: code, branch: null, pix_key: null, tax_id: null };
    }
    if (!input.branch) throw fieldError('branch', 'field_required');
    if (!input.pixKey) throw fieldError('pixKey', 'field_required');
    const pix = parsePixKey(input.pixKey);
    if (!pix) throw fieldError('pixKey', 'pix_key_invalid');
    const tax = (input.taxId ?? '').toUpperCase();
    if (!tax) throw fieldError('taxId', 'field_required');
    // CNPJ may hold letters (DOMAIN.md, from July 2026); both stored as text without punctuation.
    const bare = tax.replace(/[.\-/\s]/g, '');
    const valid = bare.length === 11 ? cpf.isValid(bare) : bare.length === 14 && cnpj.isValid(bare);
    if (!valid) throw fieldError('taxId', 'tax_id_invalid');
    return { ...base, ifsc: null, branch: input.branch, pix_key: pix.key, tax_id: bare };
  }

  #reauthenticate(user: UserRow, input: { password?: string | undefined; totpCode?: string | undefined }) {
    return reauthenticate(this.#db, this.#clock, user, input);
  }
}

/**
 * The TOTP code when two-factor is on, else the login password, as accounts/service.ts checks them:
 * asked again before a new bank account or withdrawal address (DOMAIN.md).
 */
export async function reauthenticate(
  db: Db,
  clock: Clock,
  user: UserRow,
  input: { password?: string | undefined; totpCode?: string | undefined },
): Promise<void> {
  {
    const now = clock.now();
    if (user.totp_secret) {
      if (!input.totpCode) throw fieldError('totpCode', 'totp_required');
      if (!checkTotp(user.totp_secret, input.totpCode, now)) throw fieldError('totpCode', 'totp_incorrect');
      return;
    }
    if (!input.password) throw fieldError('password', 'field_required');
    const subject = `password:${user.id}`;
    await checkLoginAllowed(db, subject, now);
    if (!(await verifyPassword(user.password_hash, input.password))) {
      await recordLoginFailure(db, subject, now);
      throw fieldError('password', 'password_incorrect');
    }
    await clearLoginFailures(db, subject);
  }
}
