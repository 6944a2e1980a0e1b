import { describe, expect, it } from 'vitest';
import { stageTable } from './stage-table.ts';

describe('stageTable', () => {
  it('lists each stage in order with its seconds and outcome, aligned, then the total', () => {
    const table = stageTable([
      { name: 'lint', seconds: 2.04, passed: true },
      { name: 'unit and API tests', seconds: 301.55, passed: false },
    ]);
    expect(table.split('\n')).toEqual([
      'stage               seconds  result',
      '-----------------------------------',
      'lint                    2.0  passed',
      'unit and API tests    301.6  failed',
      '-----------------------------------',
      'total                 303.6  failed',
    ]);
  });

  it('calls the whole run passed only when every stage passed', () => {
    const table = stageTable([{ name: 'lint', seconds: 1, passed: true }]);
    expect(table.split('\n').at(-1)).toBe('total      1.0  passed');
  });
});
