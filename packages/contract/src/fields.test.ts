import { describe, expect, it } from 'vitest';
import { idQuery, messageReadBody, newsQuery } from './content.ts';
import { pageQuery } from './fields.ts';
import { candlesBody } from './market.ts';
import { auditQuery, staffDisableBody } from './staff.ts';
import { orderIdQuery } from './stocks.ts';

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
