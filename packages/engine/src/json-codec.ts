// Owns the JSON encoding of values that contain bigints: a bigint becomes {"$bigint": "123"}.
// Must hold: fromJsonSafe(toJsonSafe(v)) deep-equals v for plain data with bigints.
// Must not: accept functions, class instances or cycles (engine data never has them), except an object
// with a toJSON() method (as JSON.stringify: the engine's LoggedResult), which is encoded as it says.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export function toJsonSafe(value: unknown): JsonValue {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (Array.isArray(value)) return value.map(toJsonSafe);
  if (typeof value === 'object' && value !== null) {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      return toJsonSafe((value as { toJSON(): unknown }).toJSON());
    }
    const out: { [key: string]: JsonValue } = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) setOwn(out, key, toJsonSafe(item));
    return out;
  }
  if (value === undefined) return null;
  return value as JsonValue;
}

export function fromJsonSafe(value: JsonValue): unknown {
  if (Array.isArray(value)) return value.map(fromJsonSafe);
  if (typeof value === 'object' && value !== null) {
    const tag = value.$bigint;
    if (typeof tag === 'string' && Object.keys(value).length === 1) return BigInt(tag);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) setOwn(out, key, fromJsonSafe(item));
    return out;
  }
  return value;
}

/** out[key] = value, also for the key "__proto__" (which assignment would take as the prototype). */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
