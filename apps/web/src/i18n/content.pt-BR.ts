// Portuguese (Brazil) texts of the message centre and notices (merged into pt-BR.ts).
import type { contentEnUS } from './content.en-US.ts';

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

export const contentPtBR: Strings<typeof contentEnUS> = {
  content: {
    messages: 'Mensagens',
    openMessages: 'Mensagens, {{count}} não lidas',
    openMessagesNone: 'Mensagens',
    all: 'Todas',
    personal: 'Pessoais',
    announcements: 'Avisos',
    personalMessage: 'Mensagem pessoal',
    announcement: 'Aviso',
    unread: 'Não lida',
    markAllRead: 'Marcar todas como lidas',
    allRead: 'Tudo marcado como lido',
    empty: 'Nenhuma mensagem ainda',
    emptyHint: 'Avisos da plataforma e mensagens para você aparecem aqui.',
    emptyPersonal: 'Nenhuma mensagem pessoal',
    emptyPersonalHint: 'Quando a equipe escrever para você, a mensagem aparecerá aqui.',
    emptyAnnouncements: 'Nenhum aviso',
    emptyAnnouncementsHint: 'Feriados da bolsa e novidades da plataforma aparecem aqui.',
    guestTitle: 'Entre para ver as suas mensagens pessoais',
    guestHint: 'Os avisos da plataforma aparecem abaixo para todos.',
    missing: 'Esta mensagem não foi encontrada.',
    missingHint: 'Ela pode ter sido removida.',
    signInToRead: 'Entre para ler esta mensagem',
    backToList: 'Todas as mensagens',
    staffNeverAsk: 'A equipe nunca pede a sua senha, códigos ou um pagamento para liberar fundos.',
  },
};
