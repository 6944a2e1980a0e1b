// Textos em português da tela VIP (stock/vip; mesclados em pt-BR.ts).
export const vipPtBR = {
  vip: {
    intro:
      'O VIP é uma assinatura: uma avaliação gratuita e depois um preço por período, pago da sua carteira de ações. Ele libera recursos deste app; não muda preços nem promete qualquer retorno.',
    state: {
      none: 'Não assinante',
      trial: 'Avaliação gratuita',
      member: 'Assinante',
      lapsed: 'Expirado',
      noneHint: 'Experimente o VIP de graça ou escolha um plano abaixo.',
      activeHint: 'VIP até {{date}}',
      lapsedHint: 'Sua assinatura terminou em {{date}}.',
    },
    claim_one: 'Resgatar {{count}} dia grátis',
    claim_other: 'Resgatar {{count}} dias grátis',
    received: 'VIP recebido',
    purchased: 'Assinatura comprada',
    strategyOn: 'A estratégia de ações VIP foi ativada para você pelo atendimento.',
    plans: 'Planos',
    days_one: '{{count}} dia',
    days_other: '{{count}} dias',
    buy: 'Comprar',
    renew: 'Renovar',
    priceNote:
      'Pago da sua carteira de ações. Comprar enquanto você é assinante soma os dias após a data de término atual.',
    plan: 'Plano',
    price: 'Preço',
    period: 'Período',
    buyNotice:
      'O preço sai da sua carteira de ações para a plataforma como taxa de assinatura e aparece nos seus registros de fundos. A assinatura libera recursos; não promete retorno.',
    unlocks: 'O que o VIP libera',
    feature: {
      advice: 'Dicas de negociação (educação)',
      block_trades: 'Operações em bloco',
      us_stocks: 'Ações dos EUA',
      short_term: 'Operações de curto prazo',
      options: 'Opções',
      strategy: 'Estratégia de ações VIP',
    },
    featureHint: {
      membersOnly: 'Para assinantes',
      open: 'Aberto a todos os clientes desta plataforma',
      blockTrades: 'Assinantes verificados podem dar lances sem o saldo HNI',
      strategy: 'Para assinantes, quando o atendimento ativar para você',
    },
    advice: 'Dicas de negociação',
    education: 'Educação',
    educationNote:
      'Publicações educativas escritas pela nossa equipe. Não são recomendação de compra ou venda e não prometem retorno.',
    adviceLocked: 'As publicações são para assinantes VIP.',
    noAdvice: 'Nenhuma publicação ainda',
    history: 'Seus períodos',
    kind: { trial: 'Avaliação gratuita', paid: 'Pago' },
    free: 'Grátis',
    entry: 'Assinatura VIP',
  },
};
