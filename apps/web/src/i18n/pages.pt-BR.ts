// Textos em português da votação de sentimento (stock/vote, stock/voteUrl), das páginas de instalação
// (common/download, androidAPP, iosAPP) e das páginas editadas pela equipe; mesclados em pt-BR.ts.
export const pagesPtBR = {
  vote: {
    entry: 'Votação de sentimento',
    entryHint: 'O que os clientes pensam desta ação hoje',
    question: 'Para onde você acha que {{symbol}} vai?',
    session: 'Votos do pregão de {{date}}',
    bullish: 'Em alta',
    bearish: 'Em baixa',
    confirmTitle: 'Votar "{{side}}" em {{symbol}}?',
    confirmBody: 'Você tem um voto por ação em cada pregão. Ele não pode ser alterado até o próximo pregão.',
    confirm: 'Votar',
    cancel: 'Cancelar',
    voted: 'Voto registrado',
    mine: 'Seu voto neste pregão: {{side}}',
    votes_zero: 'nenhum voto',
    noVotesDay: 'Nenhum voto',
    votes_one: '{{count}} voto',
    votes_other: '{{count}} votos',
    noVotes: 'Ainda não há votos neste pregão.',
    recent: 'Pregões recentes',
    disclaimer:
      'Mostra apenas o que pensam os clientes que votaram. Não é recomendação e não tem efeito nos preços: os preços vêm do mercado, nunca dos votos.',
    votingPage: 'Página de votação de acionistas',
    votingPageHint: 'Uma página indicada pela plataforma para esta ação',
  },
  voteUrl: {
    none: 'Nenhuma página de votação foi definida para esta ação.',
    address: 'Endereço',
    openOutside: 'Abrir no navegador',
    notFramed:
      'Este endereço não está na lista de sites que o app pode mostrar dentro de si. Abra-o no navegador e confira o endereço antes de entrar com qualquer senha.',
    framedNote:
      'Mostrado dentro do app a partir de {{host}}. Se ficar em branco, o site não permite: abra-o no navegador.',
    frameTitle: 'Página de votação de {{host}}',
  },
  install: {
    intro:
      'Este app é um aplicativo web (PWA): você o instala pelo navegador, não por uma loja de aplicativos. Depois ele abre pela tela inicial como qualquer outro app, em uma janela própria. Não há download separado nem arquivo APK.',
    installed: 'Você está usando o app instalado.',
    button: 'Instalar o app',
    buttonHint: 'Seu navegador oferece a instalação deste app.',
    noPrompt: 'Seu navegador não ofereceu um botão de instalação aqui. Siga os passos do seu celular abaixo.',
    accepted: 'Instalando… o app vai aparecer na tela inicial.',
    dismissed: 'Não instalado. Você pode instalar depois pelo menu do navegador.',
    android: 'Android',
    ios: 'iPhone e iPad',
    androidSteps: {
      s1: 'Abra este site no Chrome.',
      s2: 'Toque no menu (⋮) no canto superior direito.',
      s3: 'Toque em "Instalar app" (em alguns celulares, "Adicionar à tela inicial").',
      s4: 'Confirme. O app aparece na tela inicial e na lista de apps.',
    },
    iosSteps: {
      s1: 'Abra este site no Safari.',
      s2: 'Toque no botão Compartilhar (o quadrado com uma seta).',
      s3: 'Role para baixo e toque em "Adicionar à Tela de Início".',
      s4: 'Toque em "Adicionar". O app aparece na tela inicial.',
    },
    iosNote:
      'No iPhone e no iPad só o Safari adiciona o app à tela inicial; outros navegadores ali podem não oferecer isso.',
    androidNote: 'Outros navegadores (Edge, Samsung Internet, Firefox) têm uma opção parecida no menu.',
    seeAndroid: 'Passos para Android',
    seeIos: 'Passos para iPhone e iPad',
    updates: 'O app instalado se atualiza quando você o abre; sua conta e seus dados ficam no servidor.',
  },
  infoPage: {
    updated: 'Atualizado em {{date}}',
    about: 'Sobre a empresa',
    loans: 'Serviço de empréstimos',
  },
};
