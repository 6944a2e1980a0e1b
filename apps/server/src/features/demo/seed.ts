// Start-up accounts. Paper mode seeds a demo customer and a demo staff administrator whose
// credentials the README shows. Live mode never has known credentials: on first start it creates an
// administrator with a random password and TOTP secret and prints them once to the log.

import type { Db } from '@bourse/db';
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import { hashPassword } from '../../platform/secrets.ts';
import * as repo from '../accounts/repo.ts';
import { seedDemoContent } from '../content/demo-content.ts';
import type { Content } from '../content/service.ts';
import type { Ipos } from '../ipo/service.ts';
import * as staffRepo from '../staff/repo.ts';
import type { Staff } from '../staff/service.ts';
import { seedDemoIpos } from './demo-ipos.ts';

export const DEMO_CUSTOMER = {
  areaCode: '91',
  phone: '9876543210',
  password: 'demo1234',
  inviteCode: 'DEMO2026',
} as const;
export const DEMO_STAFF = { username: 'admin', password: 'admin-demo-123', totpSecret: 'JBSWY3DPEHPK3PXP' } as const;

/**
 * The demo passwords' argon2 hashes, computed once per process: a server seeds once, but the API tests
 * build hundreds of apps, and two hashes each were a quarter of an app's start.
 */
const demoHashes = new Map<string, Promise<string>>();
function demoHash(password: string): Promise<string> {
  let hashed = demoHashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    demoHashes.set(password, hashed);
  }
  return hashed;
}

/** The system itself, as the actor of the audit entries it writes at start-up. */
const SYSTEM = { staff: { id: 0 } } as Parameters<Staff['create']>[0];

export async function seed(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  staff: Staff;
  onUserCreated: ((userId: number) => Promise<void>) | undefined;
  log: (msg: string) => void;
  /** Paper mode: demo news, notices, banners and a welcome message, seeded once each. */
  content?: Content;
  /** Paper mode: demo IPOs (one drawn, one open, one upcoming), seeded once. */
  ipos?: Ipos;
}) {
  const { db, clock, config, staff } = deps;
  const staffCount = await staffRepo.countStaff(db);
  if (config.mode === 'paper') {
    const phone = `+${DEMO_CUSTOMER.areaCode}${DEMO_CUSTOMER.phone}`;
    const demo = await repo.findUserByPhone(db, phone);
    const demoId =
      demo?.id ??
      (await repo.insertUser(db, {
        phone,
        areaCode: DEMO_CUSTOMER.areaCode,
        national: DEMO_CUSTOMER.phone,
        passwordHash: await demoHash(DEMO_CUSTOMER.password),
        inviteCode: DEMO_CUSTOMER.inviteCode,
        invitedBy: null,
        isDemo: true,
        now: clock.now(),
      }));
    // Idempotent: the grant's command ids are fixed per user and asset.
    await deps.onUserCreated?.(demoId);
    if (Number(staffCount) === 0)
      await staff.create(
        SYSTEM,
        { username: DEMO_STAFF.username, role: 'admin', reason: 'Paper mode: the demo administrator' },
        { ...DEMO_STAFF, passwordHash: await demoHash(DEMO_STAFF.password) },
      );
    if (deps.content) await seedDemoContent(deps.content, { now: clock.now(), config, demoUserId: demoId });
    if (deps.ipos) await seedDemoIpos({ db, clock, ipos: deps.ipos, demoUserId: demoId });
    return;
  }
  if (Number(staffCount) === 0) {
    const created = await staff.create(SYSTEM, {
      username: 'admin',
      role: 'admin',
      reason: 'First start: the first administrator',
    });
    deps.log(
      `First start: staff administrator "admin" created. Initial password: ${created.initialPassword} ` +
        `TOTP secret: ${created.totpSecret} (${created.otpauthUrl}). Shown once: store them now and change the password.`,
    );
  }
}
