import { describe, expect, it } from 'vitest';
import { paperSealingKey, seal, sealingKeyFromHex, unseal } from './sealed-box.ts';

describe('sealed box', () => {
  const key = sealingKeyFromHex('11'.repeat(32));
  it('opens what it sealed, and each seal differs (fresh IV)', () => {
    const a = seal(key, 'the secret', 'key-1');
    const b = seal(key, 'the secret', 'key-1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('the secret');
    expect(unseal(key, a, 'key-1')).toBe('the secret');
    expect(unseal(key, b, 'key-1')).toBe('the secret');
  });
  it('refuses another key, another context and an altered value', () => {
    const sealed = seal(key, 'the secret', 'key-1');
    expect(unseal(paperSealingKey(), sealed, 'key-1')).toBeNull();
    expect(unseal(key, sealed, 'key-2')).toBeNull();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] as string, 'base64url');
    body[0] = (body[0] as number) ^ 1;
    expect(unseal(key, [...parts.slice(0, 3), body.toString('base64url')].join('.'), 'key-1')).toBeNull();
    expect(unseal(key, 'garbage', 'key-1')).toBeNull();
  });
  it('takes only a 32-byte hex key', () => {
    expect(() => sealingKeyFromHex('abc')).toThrow(/64 hex/);
    expect(paperSealingKey()).toHaveLength(32);
  });
});
