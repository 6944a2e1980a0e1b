// Textos em português do chat de atendimento (user/service, common/service, páginas serviceJs; reunidos em pt-BR.ts).
import type { chatEnUS } from './chat.en-US.ts';

export const chatPtBR: typeof chatEnUS = {
  chat: {
    entry: 'Atendimento',
    support: 'Atendimento',
    intro:
      'Escreva aqui para a nossa equipe de atendimento. A equipe responde na ordem de chegada; a resposta aparece aqui.',
    empty: 'Nenhuma mensagem ainda. Como podemos ajudar?',
    placeholder: 'Escreva uma mensagem',
    send: 'Enviar',
    attach: 'Anexar uma imagem',
    image: 'Imagem',
    typing: 'O atendimento está digitando…',
    closed: 'Esta conversa foi encerrada. Escreva de novo para começar outra.',
    state: { sent: 'Enviada', delivered: 'Entregue', read: 'Lida' },
    publicIntro: 'Nossa equipe de atendimento responde dúvidas sobre sua conta, depósitos, saques e negociação no app.',
    publicPoint1:
      'Entre e abra Atendimento para conversar com a equipe; você pode anexar uma foto (JPEG, PNG ou WebP).',
    publicPoint2: 'As respostas chegam na ordem das mensagens, e você vê quando a sua foi entregue e lida.',
    publicPoint3: 'A equipe nunca pede sua senha, seu PIN de negociação ou um código enviado ao seu celular.',
    signInToChat: 'Entrar para conversar',
    widgetIntro: 'O atendimento deste serviço é feito por uma janela de chat de {{host}}.',
    widgetOpen: 'Abrir o chat',
    widgetFailed: 'Não foi possível carregar a janela de chat. Tente novamente mais tarde.',
  },
};
