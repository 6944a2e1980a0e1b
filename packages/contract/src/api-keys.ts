// Shapes of the customer's API keys for the Binance-shaped trading API (/api/v3, features/open-api):
// /user/apikey/list, /user/apikey/add, /user/apikey/del. A key reads (account, orders, fills) and, with
// the trade permission, places and cancels spot orders; an optional IP allow-list confines it.
// Holds: the secret appears in exactly one answer, the one that creates the key.
// Must not: carry the secret anywhere else (list answers never hold it).

import { z } from 'zod';
import { pin, recordId, text } from './fields.ts';

/** read: market data, account, orders and fills. trade: read, and place and cancel orders. */
export const API_KEY_PERMISSIONS = ['read', 'trade'] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

/** A customer holds at most this many live keys (revoked ones do not count). */
export const MAX_API_KEYS = 10;
/** At most this many addresses in one key's allow-list. */
export const MAX_API_KEY_IPS = 20;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:]+$/i;
/** An IPv4 address, or an IPv6 one (hex groups and colons, at most one "::"). */
export function isIpAddress(value: string): boolean {
  if (IPV4.test(value)) return true;
  if (!IPV6.test(value) || value.length > 39 || (value.match(/::/g)?.length ?? 0) > 1) return false;
  const groups = value.split(':');
  const filled = groups.filter((g) => g !== '');
  if (filled.some((g) => g.length > 4)) return false;
  return value.includes('::') ? filled.length < 8 : groups.length === 8;
}

/**
 * The allow-list as typed: addresses separated by commas, spaces or lines ("" for none). Answers the
 * list in lower case without repeats; anything else is api_key_ips_invalid.
 */
export const apiKeyIps = () =>
  z
    .string({ error: 'api_key_ips_invalid' })
    .max(1_000, { error: 'api_key_ips_invalid' })
    .transform((raw) => [...new Set(raw.split(/[\s,;]+/).filter(Boolean))].map((ip) => ip.toLowerCase()))
    .refine((ips) => ips.length <= MAX_API_KEY_IPS && ips.every(isIpAddress), { error: 'api_key_ips_invalid' });

/** POST /user/apikey/add: the transaction password confirms it (a trade key moves money without it). */
export const addApiKeyBody = z.object({
  label: text(40),
  permission: z.enum(API_KEY_PERMISSIONS, { error: 'field_invalid' }).default('read'),
  ips: apiKeyIps().default([]),
  password: pin(),
});
export type AddApiKeyInput = z.input<typeof addApiKeyBody>;

/** POST /user/apikey/del: revokes a key at once; a foreign or unknown id is api_key_not_found. */
export const apiKeyIdBody = z.object({ id: recordId() });
export type ApiKeyIdInput = z.input<typeof apiKeyIdBody>;

export const apiKeyView = z.object({
  id: z.number().int(),
  label: z.string(),
  /** The public half, sent in the X-MBX-APIKEY header. */
  apiKey: z.string(),
  permission: z.enum(API_KEY_PERMISSIONS),
  /** Empty: any address may use the key. */
  ips: z.array(z.string()),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

export const apiKeyListView = z.object({ items: z.array(apiKeyView), max: z.number().int() });
export type ApiKeyListView = z.infer<typeof apiKeyListView>;

/** What creating a key answers: the key and, this once only, its secret. */
export const apiKeyCreatedView = z.object({ key: apiKeyView, secret: z.string() });
export type ApiKeyCreatedView = z.infer<typeof apiKeyCreatedView>;
