// Proves SPEC §9's date rules: seconds vs milliseconds, the market time zone, "--" for empty values,
// and the chat-time steps (today, yesterday, weekday, month/day, full date).
import { describe, expect, it } from 'vitest';
import { formatChatTime, formatDate, formatDateTime, toEpochMs } from './time.ts';

// 2026-03-05T09:00:00Z is 02:30 PM in Asia/Kolkata (UTC+5:30), a Thursday.
const nowMs = Date.UTC(2026, 2, 5, 9, 0, 0);

describe('toEpochMs', () => {
  it('treats 10-digit timestamps as seconds and 13-digit ones as milliseconds', () => {
    expect(toEpochMs(1772701200)).toBe(1772701200000);
    expect(toEpochMs('1772701200')).toBe(1772701200000);
    expect(toEpochMs(1772701200000)).toBe(1772701200000);
    expect(toEpochMs(0)).toBeNull();
    expect(toEpochMs('')).toBeNull();
    expect(toEpochMs(null)).toBeNull();
  });
});

describe('formatDateTime', () => {
  it('shows dd-mm-yyyy hh:mm AM/PM in Asia/Kolkata by default', () => {
    expect(formatDateTime(nowMs / 1000)).toBe('05-03-2026 02:30 PM');
    expect(formatDateTime(Date.UTC(2026, 0, 1, 18, 45))).toBe('02-01-2026 12:15 AM');
    expect(formatDate(nowMs)).toBe('05-03-2026');
  });
  it('can use another market time zone', () => {
    expect(formatDateTime(nowMs, 'America/Sao_Paulo')).toBe('05-03-2026 06:00 AM');
  });
  it('shows "--" for zero or empty', () => {
    expect(formatDateTime(0)).toBe('--');
    expect(formatDateTime('')).toBe('--');
    expect(formatDateTime(undefined)).toBe('--');
  });
});

describe('formatChatTime', () => {
  const hoursAgo = (h: number) => nowMs - h * 3_600_000;
  it('shows the time for today', () => {
    expect(formatChatTime(hoursAgo(2), nowMs, 'en-US')).toBe('12:30 PM');
  });
  it('says yesterday in the user language', () => {
    expect(formatChatTime(hoursAgo(24), nowMs, 'en-US')).toBe('Yesterday');
    expect(formatChatTime(hoursAgo(24), nowMs, 'pt-BR')).toBe('Ontem');
  });
  it('shows the weekday within six days', () => {
    expect(formatChatTime(hoursAgo(24 * 3), nowMs, 'en-US')).toBe('Monday');
    expect(formatChatTime(hoursAgo(24 * 3), nowMs, 'pt-BR')).toBe('Segunda-feira');
  });
  it('shows month and day within a year, then the full date', () => {
    expect(formatChatTime(hoursAgo(24 * 30), nowMs, 'en-US')).toBe('Feb 3');
    expect(formatChatTime(hoursAgo(24 * 400), nowMs, 'en-US')).toBe('29-01-2025');
  });
  it('takes each step in Portuguese too (the support chat shows its times in both languages)', () => {
    expect(formatChatTime(hoursAgo(2), nowMs, 'pt-BR')).toBe('12:30 PM');
    expect(formatChatTime(hoursAgo(24 * 30), nowMs, 'pt-BR')).toBe('3 de fev.');
    expect(formatChatTime(hoursAgo(24 * 400), nowMs, 'pt-BR')).toBe('29-01-2025');
  });
  it("counts days by the market's calendar, not UTC's", () => {
    // 02:30 UTC on 5 March is still 4 March, 11:30 PM, in São Paulo: "yesterday" there, "today" in India.
    const lateInBrazil = Date.UTC(2026, 2, 5, 2, 30);
    expect(formatChatTime(lateInBrazil, nowMs, 'pt-BR', 'America/Sao_Paulo')).toBe('Ontem');
    expect(formatChatTime(lateInBrazil, nowMs, 'en-US', 'Asia/Kolkata')).toBe('08:00 AM');
  });
});
