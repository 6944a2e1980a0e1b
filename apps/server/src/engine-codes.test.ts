// Every rejection the engine can answer has a translated message in the contract's catalogue.

import { isErrorCode } from '@bourse/contract';
import { ENGINE_REJECTIONS } from '@bourse/engine';
import { expect, it } from 'vitest';

it('mirrors every engine rejection code into the translated error catalogue', () => {
  expect(ENGINE_REJECTIONS.filter((code) => !isErrorCode(code))).toEqual([]);
});
