import { describe, expect, it } from 'vitest';
import { parsePixKey } from './pix-key.ts';

describe('PIX keys', () => {
  it('accepts the five kinds in their canonical form', () => {
    expect(parsePixKey('111.444.777-35')).toEqual({ kind: 'cpf', key: '11144477735' });
    expect(parsePixKey('11.222.333/0001-81')).toEqual({ kind: 'cnpj', key: '11222333000181' });
    expect(parsePixKey('12.ABC.345/01DE-35')).toEqual({ kind: 'cnpj', key: '12ABC34501DE35' });
    expect(parsePixKey(' Joao@Example.com ')).toEqual({ kind: 'email', key: 'joao@example.com' });
    expect(parsePixKey('+55 11 94321-4321')).toEqual({ kind: 'phone', key: '+5511943214321' });
    expect(parsePixKey('123E4567-E89B-12D3-A456-426614174000')).toEqual({
      kind: 'evp',
      key: '123e4567-e89b-12d3-a456-426614174000',
    });
  });

  it('refuses what is none of them', () => {
    for (const bad of [
      '',
      '111.444.777-36', // CPF check digits wrong
      '11.222.333/0001-82', // CNPJ check digits wrong
      'joao@',
      'joao example.com',
      '+91 98765 43210', // not a Brazilian phone
      '+55 11 4321', // too short
      '11943214321', // a phone without +55 reads as a CPF and fails its check digits
      '123e4567-e89b-12d3-a456', // a cut random key
      'x'.repeat(80),
    ]) {
      expect(parsePixKey(bad), bad).toBeNull();
    }
  });
});
