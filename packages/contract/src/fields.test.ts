import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loginBody, registerBody } from './accounts.ts';
import { idQuery, messageReadBody, newsQuery } from './content.ts';
import { formBoolean, loginPassword, optionalText, pageQuery, text } from './fields.ts';
import { candlesBody, searchQuery, symbolQuery } from './market.ts';
import { actionReason, auditQuery, staffDisableBody } from './staff.ts';
import { orderIdQuery, placeStockOrderBody, txRecordQuery } from './stocks.ts';

/** Every way a client might spell a number that is not a JSON integer or a form field's plain digits. */
const MISSPELT = [
  '1e3',
  '0x10',
  ' 12 ',
  '12 ',
  '1.0',
  '1.5',
  '+5',
  '-0',
  '012',
  '',
  '١٢',
  null,
  true,
  false,
  [],
  [1],
  {},
];

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => [i.path.join('.'), i.message]);

describe('whole-number fields (ids, pages, limits)', () => {
  it('take a JSON integer or a string of digits within their bounds, as a number', () => {
    expect(orderIdQuery.parse({ id: '12' })).toEqual({ id: 12 });
    expect(orderIdQuery.parse({ id: 12 })).toEqual({ id: 12 });
    expect(idQuery.parse({ id: String(Number.MAX_SAFE_INTEGER) })).toEqual({ id: Number.MAX_SAFE_INTEGER });
    expect(pageQuery.parse({})).toEqual({ page: 1, limit: 20 });
    expect(pageQuery.parse({ page: '3', limit: 100 })).toEqual({ page: 3, limit: 100 });
    expect(newsQuery.parse({ limit: '50' })).toMatchObject({ limit: 50 });
    expect(candlesBody.parse({ symbol: 'NSE:TCS', limit: '1000', before: '0' })).toMatchObject({
      limit: 1000,
      before: 0,
    });
    expect(auditQuery.parse({ staffId: '7' })).toMatchObject({ staffId: 7 });
    expect(staffDisableBody.parse({ id: '4', reason: 'left the firm' })).toMatchObject({ id: 4 });
  });

  it('refuse every other spelling, and values out of bounds, with field_invalid on the field', () => {
    for (const value of MISSPELT) {
      const label = JSON.stringify(value);
      expect(issues(orderIdQuery.safeParse({ id: value })), label).toEqual([['id', 'field_invalid']]);
      expect(issues(idQuery.safeParse({ id: value })), label).toEqual([['id', 'field_invalid']]);
      expect(issues(pageQuery.safeParse({ page: value })), label).toEqual([['page', 'field_invalid']]);
      expect(issues(pageQuery.safeParse({ limit: value })), label).toEqual([['limit', 'field_invalid']]);
      expect(issues(candlesBody.safeParse({ symbol: 'NSE:TCS', before: value })), label).toEqual([
        ['before', 'field_invalid'],
      ]);
      expect(issues(auditQuery.safeParse({ staffId: value })), label).toEqual([['staffId', 'field_invalid']]);
      expect(issues(messageReadBody.safeParse({ kind: 'notice', id: value })), label).toEqual([
        ['id', 'field_invalid'],
      ]);
    }
    for (const [schema, input, field] of [
      [orderIdQuery, { id: '0' }, 'id'],
      [orderIdQuery, { id: 0 }, 'id'],
      [orderIdQuery, { id: -3 }, 'id'],
      [orderIdQuery, { id: 2.5 }, 'id'],
      [orderIdQuery, { id: '9007199254740993' }, 'id'],
      [orderIdQuery, { id: 2 ** 53 }, 'id'],
      [pageQuery, { page: '10001' }, 'page'],
      [pageQuery, { limit: 101 }, 'limit'],
      [newsQuery, { limit: '51' }, 'limit'],
      [candlesBody, { symbol: 'NSE:TCS', limit: '1001' }, 'limit'],
      [candlesBody, { symbol: 'NSE:TCS', before: -1 }, 'before'],
    ] as const) {
      expect(issues(schema.safeParse(input)), JSON.stringify(input)).toEqual([[field, 'field_invalid']]);
    }
  });
});

describe('free-text fields', () => {
  /**
   * NUL (which PostgreSQL cannot store), a terminal escape, DEL and the other C0 controls but tab and line
   * breaks; and lone surrogates, high or low (UTF-8 cannot carry them: the database would store another text).
   */
  const CONTROLS = [
    '\u0000',
    '\u0001',
    '\u0008',
    '\u000b',
    '\u000c',
    '\u001b[2J',
    '\u001f',
    '\u007f',
    '\ud800',
    '\udfff',
    '\udc00\ud83d',
  ];

  it('refuse control characters but tab and line breaks with field_invalid, in every shared builder and free-text field, and take the rest', () => {
    for (const control of CONTROLS) {
      const label = JSON.stringify(control);
      const value = `ab${control}cd`;
      expect(issues(z.object({ v: text() }).safeParse({ v: value })), label).toEqual([['v', 'field_invalid']]);
      expect(issues(z.object({ v: optionalText() }).safeParse({ v: value })), label).toEqual([['v', 'field_invalid']]);
      expect(issues(z.object({ v: loginPassword() }).safeParse({ v: `secret${control}` })), label).toEqual([
        ['v', 'field_invalid'],
      ]);
      expect(issues(symbolQuery.safeParse({ symbol: value })), label).toEqual([['symbol', 'field_invalid']]);
      expect(issues(searchQuery.safeParse({ keyword: value })), label).toEqual([['keyword', 'field_invalid']]);
      expect(issues(candlesBody.safeParse({ symbol: value })), label).toEqual([['symbol', 'field_invalid']]);
      const order = { symbol: 'NSE:TCS', quantity: '1' };
      expect(issues(placeStockOrderBody.safeParse({ ...order, symbol: value })), label).toEqual([
        ['symbol', 'field_invalid'],
      ]);
      expect(issues(placeStockOrderBody.safeParse({ ...order, clientOrderId: `key-${control}0001` })), label).toEqual([
        ['clientOrderId', 'field_invalid'],
      ]);
      expect(issues(txRecordQuery.safeParse({ asset: value })), label).toEqual([['asset', 'field_invalid']]);
      expect(issues(txRecordQuery.safeParse({ wallet: value })), label).toEqual([['wallet', 'field_invalid']]);
      const registration = { areaCode: '91', phone: '9876543210', password: 'secret12', confirmPassword: 'secret12' };
      const captcha = { captchaId: 'c1', captchaCode: 'abcd', agree: '1' };
      expect(issues(registerBody.safeParse({ ...registration, ...captcha, inviteCode: value })), label).toEqual([
        ['inviteCode', 'field_invalid'],
      ]);
      // A staff reason is hashed into the audit log's chain: stored as anything but the text hashed, it breaks it.
      expect(issues(z.object({ reason: actionReason() }).safeParse({ reason: `a reason ${value}` })), label).toEqual([
        ['reason', 'field_invalid'],
      ]);
      // The phone check adds phone_invalid after it; the server shows a field's first issue.
      expect(
        issues(loginBody.safeParse({ areaCode: '91', phone: `98765${control}43210`, password: 'x' }))[0],
        label,
      ).toEqual(['phone', 'field_invalid']);
    }

    // Every other character is taken: accents, symbols, emoji, tab and line breaks.
    expect(z.object({ v: text() }).parse({ v: ' São\tPaulo\r\n€ ✓ 🚀 ' })).toEqual({ v: 'São\tPaulo\r\n€ ✓ 🚀' });
    expect(z.object({ v: loginPassword() }).parse({ v: ' pä ss€! ' })).toEqual({ v: ' pä ss€! ' });
    // Only hashed and compared: one set before new passwords refused control characters must still sign in.
    expect(loginBody.parse({ areaCode: '91', phone: '9876543210', password: 'old\u0000one' })).toMatchObject({
      password: 'old\u0000one',
    });
    // Numbers keep their own, clearer answers (invalid_price, invalid_quantity) from the order checks.
    expect(placeStockOrderBody.parse({ symbol: 'NSE:TCS', quantity: '1\u0000' })).toMatchObject({
      quantity: '1\u0000',
    });
  });
});

describe('formBoolean', () => {
  const schema = z.object({ postOnly: formBoolean(false) });
  it('reads a form field or a JSON boolean, absent as the fallback', () => {
    expect(schema.parse({}).postOnly).toBe(false);
    expect(schema.parse({ postOnly: 'true' }).postOnly).toBe(true);
    expect(schema.parse({ postOnly: '1' }).postOnly).toBe(true);
    expect(schema.parse({ postOnly: 'false' }).postOnly).toBe(false);
    expect(schema.parse({ postOnly: true }).postOnly).toBe(true);
    expect(z.object({ x: formBoolean(true) }).parse({}).x).toBe(true);
  });
  it('refuses anything else as field_invalid', () => {
    const result = schema.safeParse({ postOnly: 'yes' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('field_invalid');
  });
});
