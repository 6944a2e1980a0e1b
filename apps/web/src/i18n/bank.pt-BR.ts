// Textos em português das telas de contas bancárias (mesclados em pt-BR.ts).
import type { bankEnUS } from './bank.en-US.ts';

export const bankPtBR: typeof bankEnUS = {
  bank: {
    country: 'País',
    countries: { IN: 'Índia', BR: 'Brasil' },
    holderName: 'Titular da conta',
    bankName: 'Banco',
    accountNumber: 'Número da conta',
    ifsc: 'IFSC',
    branch: 'Agência',
    pixKey: 'Chave PIX',
    taxId: 'CPF ou CNPJ',
    password: 'Senha de login',
    totpCode: 'Código do autenticador',
    required: 'Este campo é obrigatório',
    add: 'Adicionar conta bancária',
    save: 'Salvar',
    empty: 'Nenhuma conta bancária ainda.',
    delete: 'Excluir',
    confirmDelete: 'Excluir esta conta bancária?',
    deleted: 'Excluído',
    added: 'Conta bancária adicionada',
    lockedUntil:
      'Os saques ficam bloqueados até {{time}} após uma nova conta bancária, endereço ou mudança de segurança.',
  },
};
