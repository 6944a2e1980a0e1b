// The text a staff-edited page shows until staff first save it (SPEC common/companyIntroduction,
// common/loanService). Plain statements of what the platform is and is not; no promise of returns.

import type { ContentPageSlug } from '@bourse/contract';

export const PAGE_DEFAULTS: Record<
  ContentPageSlug,
  { titleEn: string; titlePt: string; bodyEn: string; bodyPt: string }
> = {
  companyIntroduction: {
    titleEn: 'About this platform',
    titlePt: 'Sobre esta plataforma',
    bodyEn: [
      'This platform runs Bourse, open-source software for retail investing that its operator hosts on their own servers.',
      'Prices come from the market (or, in paper mode, from a simulator) and never from what customers do here. Every change of a balance is a ledger entry with its cause, which you can look up in your funds records.',
      'In paper mode all money is virtual and labelled as such: nothing you do here moves real money.',
      'Investing carries risk: you can lose part or all of what you invest, and past performance does not tell what will happen next. Nothing in this app is a promise of returns.',
      'The operator of this platform edits this page in the staff console.',
    ].join('\n\n'),
    bodyPt: [
      'Esta plataforma usa o Bourse, software de código aberto para investimentos de varejo que o operador hospeda nos próprios servidores.',
      'Os preços vêm do mercado (ou, no modo simulado, de um simulador) e nunca do que os clientes fazem aqui. Toda mudança de saldo é um lançamento no livro-razão com a sua causa, que você pode consultar nos seus registros de fundos.',
      'No modo simulado todo o dinheiro é virtual e identificado como tal: nada do que você faz aqui movimenta dinheiro real.',
      'Investir envolve risco: você pode perder parte ou todo o valor investido, e resultados passados não dizem o que vai acontecer. Nada neste app é promessa de rendimento.',
      'O operador desta plataforma edita esta página no console da equipe.',
    ].join('\n\n'),
  },
  loanService: {
    titleEn: 'Loan service',
    titlePt: 'Serviço de empréstimos',
    bodyEn: [
      'A loan here is a credit line: you see every term before you agree to it — the amount, the number of days, the daily interest rate, the amount you receive, the amount you repay and the dates.',
      'Staff review each application and the member of staff who reviews yours is named in its record. You never need to contact anyone to see the terms.',
      'Borrowing costs money: interest is charged every day until you repay, and repaying late is shown in the terms before you apply. Borrowing to invest makes losses larger as well as gains.',
      'Where loans are not offered on this platform, the loan pages say so.',
    ].join('\n\n'),
    bodyPt: [
      'Um empréstimo aqui é uma linha de crédito: você vê todas as condições antes de aceitar — o valor, o número de dias, a taxa de juros diária, o valor que recebe, o valor que devolve e as datas.',
      'A equipe analisa cada pedido, e o membro da equipe que analisa o seu fica registrado nele. Você nunca precisa falar com ninguém para ver as condições.',
      'Tomar emprestado custa dinheiro: os juros são cobrados todos os dias até o pagamento, e as consequências do atraso aparecem nas condições antes do pedido. Investir com dinheiro emprestado aumenta as perdas tanto quanto os ganhos.',
      'Onde esta plataforma não oferece empréstimos, as páginas de empréstimo dizem isso.',
    ].join('\n\n'),
  },
};
