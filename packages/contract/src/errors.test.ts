import { describe, expect, it } from 'vitest';
import { ERRORS, errorMessage } from './errors.ts';

describe('error catalogue', () => {
  it('has a non-empty, distinct message in both languages and an HTTP error status for every code', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(entry.en.length, code).toBeGreaterThan(3);
      expect(entry.pt.length, code).toBeGreaterThan(3);
      expect(entry.pt, code).not.toBe(entry.en);
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
    }
  });
  it('carries SPEC §8 messages word for word in English', () => {
    expect(errorMessage('insufficient_balance', 'en-US')).toBe('Insufficient balance');
    expect(errorMessage('daily_limit_buy', 'en-US')).toBe('Stocks with daily limit cannot be bought');
    expect(errorMessage('captcha_incorrect', 'pt-BR')).toBe('Código captcha incorreto');
  });
});
