// The success messages of SPEC §8 ("submitted", "cancelled", "modified"…) in both languages: what a
// completed action answers in the envelope's msg. Like errors.ts, the one place these words live;
// a read answers no message of its own.

import type { Lang } from './lang.ts';

export const SUCCESS = {
  submitted: { en: 'Submitted', pt: 'Enviado' },
  cancelled: { en: 'Cancelled', pt: 'Cancelado' },
  sent: { en: 'Sent', pt: 'Enviado' },
  modified: { en: 'Modified', pt: 'Alterado' },
  deleted: { en: 'Deleted', pt: 'Excluído' },
  registration: { en: 'Registration successful', pt: 'Cadastro realizado com sucesso' },
  login: { en: 'Login successful', pt: 'Login realizado com sucesso' },
  loan_applied: { en: 'Loan application submitted', pt: 'Pedido de empréstimo enviado' },
  loan_repayment_submitted: { en: 'Repayment submitted for review', pt: 'Pagamento enviado para análise' },
  vip_purchased: { en: 'Membership purchased', pt: 'Assinatura comprada' },
  vip_received: { en: 'VIP received', pt: 'VIP recebido' },
} as const satisfies Record<string, { readonly en: string; readonly pt: string }>;

export type SuccessCode = keyof typeof SUCCESS;

export function successMessage(code: SuccessCode, lang: Lang): string {
  return lang === 'pt-BR' ? SUCCESS[code].pt : SUCCESS[code].en;
}
