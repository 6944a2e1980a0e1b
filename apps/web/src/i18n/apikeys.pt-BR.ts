// Textos em português da tela de chaves de API (mesclados em pt-BR.ts).
export const apiKeysPtBR = {
  apiKeys: {
    intro:
      'Chaves de API permitem que suas próprias ferramentas (ccxt, um robô de negociação, uma planilha) leiam sua conta spot e, se você permitir, negociem por uma API compatível com a Binance.',
    baseUrl: 'Endereço da API',
    empty: 'Você não tem chaves de API.',
    create: 'Criar chave de API',
    label: 'Nome',
    labelPlaceholder: 'ex.: Meu robô de negociação',
    permission: 'Permissão',
    permissions: { read: 'Somente leitura', trade: 'Leitura e negociação' },
    permissionHint:
      'Leitura: saldos, ordens e execuções. Negociação: também criar e cancelar ordens spot. Chaves nunca sacam.',
    ips: 'Endereços IP permitidos (opcional)',
    ipsPlaceholder: 'ex.: 203.0.113.7, 2001:db8::1',
    ipsHint: 'Somente estes endereços podem usar a chave. Deixe vazio para permitir qualquer endereço.',
    anyIp: 'Qualquer endereço IP',
    password: 'Senha de transação',
    passwordHint: 'Sua senha de transação de 6 dígitos confirma a nova chave.',
    required: 'Obrigatório',
    created: 'Chave de API criada',
    secretOnce:
      'Copie a chave secreta agora: ela é mostrada só uma vez e não pode ser recuperada. Quem a tiver pode usar esta chave.',
    apiKey: 'Chave de API',
    secret: 'Chave secreta',
    done: 'Já guardei',
    createdAt: 'Criada em {{time}}',
    lastUsed: 'Último uso em {{time}} de {{ip}}',
    neverUsed: 'Nunca usada',
    revoke: 'Revogar',
    confirmRevoke: 'Revogar a chave "{{label}}"? As ferramentas que a usam param de funcionar na hora.',
    revoked: 'Chave de API revogada',
    limit: '{{count}} de {{max}} chaves',
  },
};
