// Paper mode's demo launchpad, seeded once at the first start (after the demo customer and administrator
// exist): see CoinOfferings.seedDemo.

import type { Db } from '@bourse/db';
import * as accountsRepo from '../accounts/repo.ts';
import { DEMO_CUSTOMER, DEMO_STAFF } from '../demo/seed.ts';
import { findStaffByUsername } from '../staff/repo.ts';
import type { CoinOfferings } from './service.ts';

export async function seedDemoLaunchpad(db: Db, offerings: CoinOfferings): Promise<void> {
  const admin = await findStaffByUsername(db, DEMO_STAFF.username);
  const customer = await accountsRepo.findUserByPhone(db, `+${DEMO_CUSTOMER.areaCode}${DEMO_CUSTOMER.phone}`);
  if (!admin || !customer) return;
  await offerings.seedDemo(Number(admin.id), Number(customer.id));
}
