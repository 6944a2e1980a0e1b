// The customer's withdrawal address book (/coin/withdraw/address, /generate, /del). Adding one asks for
// the login password or TOTP again (as /bank/add does) and locks withdrawals for 24 hours (lock.ts).
// Holds: an address is checked for its network in this deployment's mode (paper: test networks, so a
// paper address can never be a real one); another customer's id answers not found. Must not: move money.

import {
  type addWithdrawAddressBody,
  WITHDRAW_ADDRESS_LIMIT,
  type WithdrawAddressListView,
  type WithdrawAddressView,
} from '@bourse/contract';
import type { Db } from '@bourse/db';
import type { z } from 'zod';
import { AppError, fieldError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { isValidAddress, type Mode, type NetworkCode, networkOf, networksFor } from '../../platform/crypto-networks.ts';
import type { UserRow } from '../accounts/repo.ts';
import { reauthenticate } from '../bank-accounts/service.ts';
import { withdrawalsLockedUntil } from './lock.ts';
import * as repo from './repo.ts';

export class AddressBook {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #mode: Mode;
  constructor(deps: { db: Db; clock: Clock; mode: Mode }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#mode = deps.mode;
  }

  #view(r: repo.AddressRow): WithdrawAddressView {
    return {
      id: r.id,
      asset: r.asset,
      network: r.network,
      networkName: networkOf(r.network)?.name[this.#mode] ?? r.network,
      address: r.address,
      label: r.label,
      createdAt: r.created_at,
    };
  }

  async list(user: UserRow, asset?: string): Promise<WithdrawAddressListView> {
    return {
      items: (await repo.liveAddresses(this.#db, user.id, asset || undefined)).map((r) => this.#view(r)),
      withdrawalsLockedUntil: await withdrawalsLockedUntil(this.#db, user.id, this.#clock.now()),
    };
  }

  async add(user: UserRow, input: z.output<typeof addWithdrawAddressBody>): Promise<WithdrawAddressView> {
    // Checked before the password, so a typo in the address costs no password attempt.
    if (!networksFor(input.asset).some((n) => n.code === input.network))
      throw fieldError('network', 'withdraw_network_unsupported');
    const network = input.network as NetworkCode;
    if (!isValidAddress(network, input.address, this.#mode)) throw fieldError('address', 'withdraw_address_invalid');
    await reauthenticate(this.#db, this.#clock, user, input);
    const now = this.#clock.now();
    const id = await this.#db.transaction(async (tx) => {
      if ((await repo.liveAddresses(tx, user.id)).length >= WITHDRAW_ADDRESS_LIMIT)
        throw new AppError('withdraw_address_limit');
      return repo.insertAddress(tx, {
        user_id: user.id,
        asset: input.asset,
        network,
        address: input.address,
        label: input.label ?? '',
        created_at: now,
      });
    });
    return this.#view((await repo.findLiveAddress(this.#db, user.id, id))!);
  }

  async del(user: UserRow, id: number): Promise<void> {
    if (!(await repo.softDeleteAddress(this.#db, user.id, id, this.#clock.now())))
      throw new AppError('withdraw_address_not_found');
  }
}
