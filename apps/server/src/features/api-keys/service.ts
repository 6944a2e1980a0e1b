// Customers' API keys for the Binance-shaped trading API: created with the transaction password (the
// key then trades without it), listed, revoked at once; and resolved for each signed request.
// Must hold: the secret is answered once, at creation, and is stored only sealed (platform/sealed-box.ts);
// a revoked key, or one of a blocked customer, resolves to nothing. Must not: answer another customer's
// key (a foreign id is api_key_not_found, as an unknown one).

import { randomBytes } from 'node:crypto';
import type { ApiKeyCreatedView, ApiKeyListView, ApiKeyPermission, ApiKeyView } from '@bourse/contract';
import { MAX_API_KEYS } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { type SealingKey, seal, unseal } from '../../platform/sealed-box.ts';
import type { UserRow } from '../accounts/repo.ts';
import * as repo from './repo.ts';

/** How often a key's "last used" is written at most (every call would be a write per request). */
const TOUCH_EVERY_MS = 60_000;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 64 random letters and digits, as Binance's keys and secrets look (about 381 bits). */
export function newKeyText(length = 64): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length)) {
      // 248 = 4 × 62: bytes above are dropped so every character is equally likely.
      if (b < 248 && out.length < length) out += ALPHANUMERIC[b % 62];
    }
  }
  return out;
}

/** A key as a signed request sees it. */
export type ResolvedKey = {
  id: number;
  userId: number;
  permission: ApiKeyPermission;
  ips: readonly string[];
  secret: string;
};

export class ApiKeys {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #sealingKey: SealingKey | null;
  readonly #checkPin: (user: UserRow, pin: string) => Promise<void>;
  readonly #touched = new Map<number, number>();
  constructor(deps: {
    db: Db;
    clock: Clock;
    sealingKey: SealingKey | null;
    checkPin: (user: UserRow, pin: string) => Promise<void>;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#sealingKey = deps.sealingKey;
    this.#checkPin = deps.checkPin;
  }

  async list(userId: number): Promise<ApiKeyListView> {
    return { items: (await repo.liveKeysOf(this.#db, userId)).map(toView), max: MAX_API_KEYS };
  }

  async add(
    user: UserRow,
    input: { label: string; permission: ApiKeyPermission; ips: string[]; password: string },
  ): Promise<ApiKeyCreatedView> {
    const sealingKey = this.#sealingKey;
    if (!sealingKey) throw new AppError('api_keys_unavailable');
    await this.#checkPin(user, input.password);
    if ((await repo.countLiveKeys(this.#db, user.id)) >= MAX_API_KEYS)
      throw new AppError('api_key_limit', undefined, () => ({ max: String(MAX_API_KEYS) }));
    const apiKey = newKeyText();
    const secret = newKeyText();
    const row = {
      user_id: user.id,
      label: input.label,
      api_key: apiKey,
      secret_sealed: seal(sealingKey, secret, apiKey),
      permission: input.permission,
      ips: input.ips.join(','),
      created_at: this.#clock.now(),
    };
    const id = await repo.insertKey(this.#db, row);
    return {
      key: toView({ ...row, id, revoked_at: null, last_used_at: null, last_used_ip: null }),
      secret,
    };
  }

  async revoke(userId: number, id: number): Promise<void> {
    if (!(await repo.revokeKey(this.#db, userId, id, this.#clock.now()))) throw new AppError('api_key_not_found');
    this.#touched.delete(id);
  }

  /** The live key with this public half, its secret unsealed; null if unknown, revoked or its owner blocked. */
  async resolve(apiKey: string): Promise<ResolvedKey | null> {
    if (!this.#sealingKey || !/^[A-Za-z0-9]{64}$/.test(apiKey)) return null;
    const row = await repo.findLiveKey(this.#db, apiKey);
    if (!row || row.user_status === 0) return null;
    const secret = unseal(this.#sealingKey, row.secret_sealed, row.api_key);
    if (secret === null) return null;
    return { id: row.id, userId: row.user_id, permission: row.permission, ips: splitIps(row.ips), secret };
  }

  /** Records a use (at most once a minute per key). */
  async touch(keyId: number, ip: string): Promise<void> {
    const now = this.#clock.now();
    const last = this.#touched.get(keyId);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
    this.#touched.set(keyId, now);
    await repo.touchKey(this.#db, keyId, now, ip);
  }
}

const splitIps = (ips: string) => (ips ? ips.split(',') : []);

function toView(r: Omit<repo.ApiKeyRow, 'secret_sealed'>): ApiKeyView {
  return {
    id: r.id,
    label: r.label,
    apiKey: r.api_key,
    permission: r.permission,
    ips: splitIps(r.ips),
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    lastUsedIp: r.last_used_ip,
  };
}
