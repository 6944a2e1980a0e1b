// The one withdrawal lock rule (DOMAIN.md): a new bank account or withdrawal address, or a change of the
// password, two-factor or withdrawal password, locks every withdrawal for 24 hours from when it happened
// (what a thief who took over the account would do first). Deleting an account does not lift the lock. /bank/list, the
// address list, the withdraw config and every withdrawal request read it here, so they always agree.

import { WITHDRAW_LOCK_MS } from '@bourse/contract';
import type { Sql } from '@bourse/db';
import * as accountsRepo from '../accounts/repo.ts';
import * as bankRepo from '../bank-accounts/repo.ts';
import * as repo from './repo.ts';

/** Epoch ms until which the customer's withdrawals are locked; 0 when they are not. */
export async function withdrawalsLockedUntil(db: Sql, userId: number, now: number): Promise<number> {
  const newest = Math.max(
    await bankRepo.newestCreatedAt(db, userId),
    await repo.newestAddressCreatedAt(db, userId),
    await accountsRepo.securityChangedAt(db, userId),
  );
  const until = newest ? newest + WITHDRAW_LOCK_MS : 0;
  return until > now ? until : 0;
}
