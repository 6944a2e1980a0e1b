// The demo content of paper mode, in both languages: banners, notices (the deployment market's next
// exchange holidays from the calendars, T+1, virtual money), market-desk articles and a welcome
// message for the demo customer. Every text is honest: it says the money is virtual and the market
// simulated, promises nothing, and the articles are labelled as demo content. Seeding is idempotent:
// each item has a fixed seed key, so a restart adds nothing and an item staff unpublished stays unpublished.

import { CALENDARS, type ExchangeId, localDateOf } from '@bourse/market';
import type { Config } from '../../config.ts';
import type { Content } from './service.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const SOURCE = { sourceEn: 'Demo desk · paper mode', sourcePt: 'Mesa de demonstração · modo simulado' };
const DEMO_NOTE = {
  en: 'Demo content written for paper mode. Prices on this platform come from a simulator; nothing here is investment advice or a promise of returns.',
  pt: 'Conteúdo de demonstração escrito para o modo simulado. Os preços nesta plataforma vêm de um simulador; nada aqui é recomendação de investimento nem promessa de retorno.',
};

type Article = { key: string; ageMs: number; en: [string, string, string]; pt: [string, string, string] };

const ARTICLES: Article[] = [
  {
    key: 'news:paper-market',
    ageMs: HOUR_MS,
    en: [
      'How the paper market works',
      'Prices come from a seeded simulator that never looks at your orders.',
      'In paper mode every price you see comes from a market simulator. It starts each instrument near a realistic level and moves it step by step with random, seeded changes, only inside each exchange’s trading hours.\n\nThe simulator never reads anyone’s positions or orders, and no member of staff can set a price, a fill or a profit. Your orders trade on a real order book against the simulated quotes, so fills, partial fills and slippage behave as they would on an exchange.\n\nBecause the simulator is seeded, the same seed gives the same market: anyone who runs this open-source platform can reproduce it.',
    ],
    pt: [
      'Como funciona o mercado simulado',
      'Os preços vêm de um simulador com semente fixa que nunca olha as suas ordens.',
      'No modo simulado, todo preço que você vê vem de um simulador de mercado. Ele começa cada instrumento perto de um nível realista e o move passo a passo com variações aleatórias de semente fixa, somente dentro do horário de negociação de cada bolsa.\n\nO simulador nunca lê as posições ou ordens de ninguém, e nenhum funcionário pode definir um preço, uma execução ou um lucro. Suas ordens são negociadas em um livro de ofertas real contra as cotações simuladas, então execuções, execuções parciais e slippage se comportam como em uma bolsa.\n\nComo o simulador usa uma semente, a mesma semente gera o mesmo mercado: qualquer pessoa que rode esta plataforma de código aberto pode reproduzi-lo.',
    ],
  },
  {
    key: 'news:trading-hours',
    ageMs: 5 * HOUR_MS,
    en: [
      'Trading hours in India, the US and Brazil',
      'Each market trades in its own time zone; Home shows whether it is open.',
      'NSE and BSE trade from 09:15 to 15:30 India time, after a 15-minute pre-open auction. NYSE and Nasdaq trade from 09:30 to 16:00 New York time. B3 trades from 10:00 to 17:00 São Paulo time, and until 18:00 while New York is on standard time.\n\nOutside these hours prices do not move. The status line at the top of Home shows whether the selected market is open and when it next opens or closes, in that market’s own time.',
    ],
    pt: [
      'Horários de negociação na Índia, nos EUA e no Brasil',
      'Cada mercado negocia no seu fuso horário; a tela inicial mostra se está aberto.',
      'NSE e BSE negociam das 09:15 às 15:30, horário da Índia, depois de um leilão de pré-abertura de 15 minutos. NYSE e Nasdaq negociam das 09:30 às 16:00, horário de Nova York. A B3 negocia das 10:00 às 17:00, horário de São Paulo, e até as 18:00 enquanto Nova York está no horário padrão.\n\nFora desses horários os preços não se movem. A linha de status no topo da tela inicial mostra se o mercado escolhido está aberto e quando abre ou fecha, no horário desse mercado.',
    ],
  },
  {
    key: 'news:t-plus-one',
    ageMs: DAY_MS,
    en: [
      'What T+1 settlement means for your shares',
      'Shares you buy today become sellable on the next trading day.',
      'Indian and US exchanges settle share trades one trading day after the trade (T+1); B3 in Brazil settles cash equities in two business days (D+2). On this platform, shares you buy are locked until the next trading day: they count in your holdings and their value moves with the market, but you can sell them only from then on.\n\nWeekends and exchange holidays are not trading days. Shares bought on a Friday become sellable on Monday, or later if Monday is a holiday.\n\nYour holdings show how many shares are sellable and how many are still locked, with the time they unlock.',
    ],
    pt: [
      'O que a liquidação T+1 significa para as suas ações',
      'As ações que você compra hoje podem ser vendidas no próximo dia de negociação.',
      'As bolsas da Índia e dos EUA liquidam negociações de ações um dia de negociação depois do negócio (T+1); a B3 liquida ações à vista em dois dias úteis (D+2). Nesta plataforma, as ações que você compra ficam bloqueadas até o próximo dia de negociação: elas contam na sua carteira e o valor delas acompanha o mercado, mas você só pode vendê-las a partir de então.\n\nFins de semana e feriados da bolsa não são dias de negociação. Ações compradas numa sexta-feira podem ser vendidas na segunda-feira, ou depois, se a segunda for feriado.\n\nA sua carteira mostra quantas ações podem ser vendidas e quantas ainda estão bloqueadas, com o horário do desbloqueio.',
    ],
  },
  {
    key: 'news:order-types',
    ageMs: 2 * DAY_MS,
    en: [
      'Market orders and limit orders',
      'A market order trades now at the best price available; a limit order waits for your price.',
      'A market order buys or sells at once at the best prices in the order book. In a fast or thin market the price you get can differ from the last price you saw: this difference is called slippage.\n\nA limit order names the worst price you accept. It trades only at that price or better, and otherwise waits in the order book until the market reaches it, you cancel it, or the session ends.\n\nBefore you confirm, the order screen shows the price, the quantity, the fees and the total.',
    ],
    pt: [
      'Ordens a mercado e ordens limitadas',
      'A ordem a mercado é executada agora ao melhor preço disponível; a limitada espera o seu preço.',
      'Uma ordem a mercado compra ou vende imediatamente aos melhores preços do livro de ofertas. Num mercado rápido ou com pouca liquidez, o preço obtido pode ser diferente do último preço que você viu: essa diferença se chama slippage.\n\nUma ordem limitada define o pior preço que você aceita. Ela só é executada a esse preço ou melhor e, caso contrário, espera no livro de ofertas até o mercado chegar a ele, você cancelá-la ou o pregão terminar.\n\nAntes de confirmar, a tela da ordem mostra o preço, a quantidade, as taxas e o total.',
    ],
  },
  {
    key: 'news:price-bands',
    ageMs: 3 * DAY_MS,
    en: [
      'Price bands: why an order can be refused',
      'Many stocks may only trade within a daily band around their reference price.',
      'Exchanges set a price band, also called a circuit limit, for many stocks: a range around the previous close outside which no trade may happen that day. A limit order priced outside the band is refused with a clear message, and a stock that has reached its upper limit cannot be bought.\n\nThe band of each stock is shown on its quote page. The paper market applies the same rule, so you can see how bands work before you ever trade with real money.',
    ],
    pt: [
      'Bandas de preço: por que uma ordem pode ser recusada',
      'Muitas ações só podem ser negociadas dentro de uma banda diária em torno do preço de referência.',
      'As bolsas definem uma banda de preço, também chamada de limite de oscilação, para muitas ações: um intervalo em torno do fechamento anterior fora do qual nenhum negócio pode acontecer naquele dia. Uma ordem limitada com preço fora da banda é recusada com uma mensagem clara, e uma ação que atingiu o limite superior não pode ser comprada.\n\nA banda de cada ação aparece na página de cotação. O mercado simulado aplica a mesma regra, então você vê como as bandas funcionam antes de negociar com dinheiro real.',
    ],
  },
  {
    key: 'news:order-book',
    ageMs: 4 * DAY_MS,
    en: [
      'How to read an order book',
      'Asks above, bids below, and the spread in between.',
      'The order book lists the orders waiting to trade. Sell orders (asks) are shown above in red, with the lowest ask nearest the middle; buy orders (bids) are below in green, with the highest bid nearest the middle. The gap between the best ask and the best bid is the spread.\n\nEach row shows a price and the quantity waiting at it; the bar behind the row compares that quantity with the other levels. A narrow spread and deep levels usually mean a market order will trade close to the last price.',
    ],
    pt: [
      'Como ler um livro de ofertas',
      'Ofertas de venda em cima, de compra embaixo, e o spread entre elas.',
      'O livro de ofertas lista as ordens que esperam para ser negociadas. As ordens de venda aparecem em cima, em vermelho, com a menor oferta de venda mais perto do meio; as ordens de compra ficam embaixo, em verde, com a maior oferta de compra mais perto do meio. A diferença entre a melhor venda e a melhor compra é o spread.\n\nCada linha mostra um preço e a quantidade esperando nele; a barra atrás da linha compara essa quantidade com os outros níveis. Um spread estreito e níveis profundos costumam significar que uma ordem a mercado será executada perto do último preço.',
    ],
  },
  {
    key: 'news:no-promises',
    ageMs: 6 * DAY_MS,
    en: [
      'Why no one can promise you returns',
      'Be wary of anyone who guarantees a profit, on an app or anywhere else.',
      'Prices of stocks and crypto-assets go down as well as up. Anyone who guarantees a return, a “discounted” allotment or a fixed daily profit from a robot is describing something markets cannot deliver.\n\nOn this platform, robots and funds earn only what their real trades earn, any past rate of return is shown with its period, and a withdrawal never needs a fee paid up front or a call to support. If someone asks you for money to unlock a withdrawal, it is a scam.\n\nIn paper mode you can practise with virtual money and see how your decisions play out, without risking any savings.',
    ],
    pt: [
      'Por que ninguém pode prometer retorno',
      'Desconfie de quem garante lucro, num aplicativo ou em qualquer lugar.',
      'Os preços de ações e criptoativos sobem e descem. Quem garante um retorno, uma alocação “com desconto” ou um lucro diário fixo de um robô está descrevendo algo que os mercados não podem entregar.\n\nNesta plataforma, robôs e fundos ganham apenas o que as suas negociações reais ganham, qualquer taxa de retorno passada aparece com o seu período, e um saque nunca exige taxa paga antecipadamente nem contato com o suporte. Se alguém pedir dinheiro para liberar um saque, é golpe.\n\nNo modo simulado você pode praticar com dinheiro virtual e ver o resultado das suas decisões, sem arriscar economias.',
    ],
  },
];

type Banner = {
  key: string;
  link: string;
  ageMs: number;
  colors: [string, string];
  en: [string, string];
  pt: [string, string];
};

const BANNERS: Banner[] = [
  {
    key: 'ad:paper-trading',
    link: '/pages/tabbar/markets',
    ageMs: HOUR_MS,
    colors: ['#0f3d37', '#1cd7c0'],
    en: ['Practise with virtual money', 'Simulated markets, real order books'],
    pt: ['Pratique com dinheiro virtual', 'Mercados simulados, livros de ofertas reais'],
  },
  {
    key: 'ad:statement',
    link: '/pages/fundsDetail/stockFundsDetail',
    ageMs: 2 * HOUR_MS,
    colors: ['#1d2b4f', '#3f6fd8'],
    en: ['Every balance change, line by line', 'Trades, fees and grants in your statement'],
    pt: ['Cada mudança de saldo, linha a linha', 'Negócios, taxas e créditos no seu extrato'],
  },
  {
    key: 'ad:open-source',
    link: '/pages/user/about',
    ageMs: 3 * HOUR_MS,
    colors: ['#3a2450', '#9b6ad6'],
    en: ['Open source: check every rule', 'No one at the platform can set a price'],
    pt: ['Código aberto: confira cada regra', 'Ninguém na plataforma define preços'],
  },
];

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A 716×240 banner as an inline SVG, its headline sized to fit, with a "virtual money" tag. */
export function bannerImage(headline: string, subline: string, tag: string, colors: [string, string]): string {
  const width = 716;
  const fit = (text: string, max: number, room: number) => Math.min(max, Math.floor(room / (text.length * 0.56)));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="240" viewBox="0 0 ${width} 240">` +
    `<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="${colors[0]}"/><stop offset="1" stop-color="${colors[1]}"/></linearGradient></defs>` +
    `<rect width="${width}" height="240" fill="url(#g)"/>` +
    `<rect x="40" y="30" rx="17" width="${Math.ceil(tag.length * 10.6) + 32}" height="34" fill="#ffffff" fill-opacity="0.2"/>` +
    `<text x="56" y="54" font-family="sans-serif" font-size="21" font-weight="600" fill="#ffffff">${escapeXml(tag)}</text>` +
    `<text x="40" y="132" font-family="sans-serif" font-size="${fit(headline, 44, 636)}" font-weight="700" fill="#ffffff">${escapeXml(headline)}</text>` +
    `<text x="40" y="184" font-family="sans-serif" font-size="${fit(subline, 28, 636)}" fill="#e8fbf8">${escapeXml(subline)}</text>` +
    '</svg>';
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
}

const MARKET_EXCHANGES: Record<
  Config['stockCountry'],
  { exchange: ExchangeId; en: string; pt: string; plural: boolean }
> = {
  IN: { exchange: 'NSE', en: 'NSE and BSE', pt: 'NSE e BSE', plural: true },
  US: { exchange: 'NYSE', en: 'NYSE and Nasdaq', pt: 'NYSE e Nasdaq', plural: true },
  BR: { exchange: 'B3', en: 'B3', pt: 'B3', plural: false },
};

/** The next `count` holidays of an exchange on or after `nowMs` (local dates), from the calendar data. */
export function upcomingHolidays(exchange: ExchangeId, nowMs: number, count: number) {
  const calendar = CALENDARS[exchange];
  const today = localDateOf(nowMs, calendar.timeZone);
  return Object.entries(calendar.holidays)
    .filter(([day]) => day >= today)
    .sort(([a], [b]) => a.localeCompare(b))
    .slice(0, count)
    .map(([day, name]) => ({ day, name }));
}

function holidayNotice(market: (typeof MARKET_EXCHANGES)[Config['stockCountry']], day: string, name: string) {
  const date = new Date(`${day}T12:00:00Z`);
  const weekday = (locale: string) =>
    new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(date);
  const shown = day.split('-').reverse().join('-'); // dd-mm-yyyy (SPEC §9)
  const closed = market.plural ? 'fechadas' : 'fechada';
  const on = /^(sábado|domingo)/.test(weekday('pt-BR')) ? 'no' : 'na';
  return {
    titleEn: `${market.en} closed on ${weekday('en-US')} ${shown}: ${name}`,
    titlePt: `${market.pt} ${closed} ${on} ${weekday('pt-BR')}, ${shown}: ${name}`,
    summaryEn: 'No trading session that day; orders placed then wait for the next session.',
    summaryPt: 'Não há pregão nesse dia; ordens enviadas nele esperam o próximo pregão.',
    bodyEn: `${market.en} will hold no trading session on ${weekday('en-US')} ${shown} (${name}). The paper market follows the same calendar: prices do not move that day, and orders placed then wait for the next session. Settlement dates move forward by one trading day.`,
    bodyPt: `${market.pt} não ${market.plural ? 'terão' : 'terá'} pregão ${on} ${weekday('pt-BR')}, ${shown} (${name}). O mercado simulado segue o mesmo calendário: os preços não se movem nesse dia, e ordens enviadas nele esperam o próximo pregão. As datas de liquidação avançam um dia de negociação.`,
  };
}

export async function seedDemoContent(
  content: Content,
  deps: { now: number; config: Pick<Config, 'stockCountry' | 'platformName'>; demoUserId: number },
) {
  const { now, config } = deps;
  for (const b of BANNERS) {
    await content.seedItem(
      b.key,
      'ad',
      {
        titleEn: b.en[0],
        titlePt: b.pt[0],
        imageEn: bannerImage(b.en[0], b.en[1], 'Paper mode · virtual money', b.colors),
        imagePt: bannerImage(b.pt[0], b.pt[1], 'Modo simulado · dinheiro virtual', b.colors),
        link: b.link,
      },
      now - b.ageMs,
    );
  }

  const market = MARKET_EXCHANGES[config.stockCountry];
  const holidays = upcomingHolidays(market.exchange, now, 2);
  for (const [i, h] of holidays.entries()) {
    await content.seedItem(
      `notice:holiday:${market.exchange}:${h.day}`,
      'notice',
      holidayNotice(market, h.day, h.name),
      now - 2 * HOUR_MS - i * 60_000,
    );
  }
  await content.seedItem(
    'notice:paper-mode',
    'notice',
    {
      titleEn: 'Paper mode: every balance here is virtual money',
      titlePt: 'Modo simulado: todo saldo aqui é dinheiro virtual',
      summaryEn: 'Markets are simulated and payments use a sandbox. No real money moves.',
      summaryPt:
        'Os mercados são simulados e os pagamentos usam um ambiente de testes. Nenhum dinheiro real é movimentado.',
      bodyEn:
        'This deployment runs in paper mode. Every balance is virtual money granted for practice, markets are simulated, and deposits and withdrawals use a sandbox.\n\nNothing you do here moves real money, and no one will ever ask you to pay to withdraw virtual funds.',
      bodyPt:
        'Esta instalação funciona no modo simulado. Todo saldo é dinheiro virtual concedido para praticar, os mercados são simulados, e depósitos e saques usam um ambiente de testes.\n\nNada do que você faz aqui movimenta dinheiro real, e ninguém jamais pedirá que você pague para sacar fundos virtuais.',
    },
    now - 30 * 60_000,
  );
  await content.seedItem(
    'notice:t-plus-one',
    'notice',
    {
      titleEn: 'Shares you buy are sellable from the next trading day (T+1)',
      titlePt: 'Ações compradas podem ser vendidas a partir do próximo dia de negociação (T+1)',
      summaryEn: 'Bought shares stay locked until the next trading day; your holdings show when they unlock.',
      summaryPt:
        'Ações compradas ficam bloqueadas até o próximo dia de negociação; a sua carteira mostra quando são liberadas.',
      bodyEn:
        'Shares you buy are locked until the next trading day (T+1). They count in your holdings from the moment you buy them, and your holdings show how many are sellable and when the rest unlock. Weekends and exchange holidays are not trading days.',
      bodyPt:
        'As ações que você compra ficam bloqueadas até o próximo dia de negociação (T+1). Elas contam na sua carteira desde a compra, e a carteira mostra quantas podem ser vendidas e quando as demais são liberadas. Fins de semana e feriados da bolsa não são dias de negociação.',
    },
    now - 2 * DAY_MS,
  );

  for (const a of ARTICLES) {
    await content.seedItem(
      a.key,
      'news',
      {
        titleEn: a.en[0],
        summaryEn: a.en[1],
        bodyEn: `${a.en[2]}\n\n${DEMO_NOTE.en}`,
        titlePt: a.pt[0],
        summaryPt: a.pt[1],
        bodyPt: `${a.pt[2]}\n\n${DEMO_NOTE.pt}`,
        ...SOURCE,
      },
      now - a.ageMs,
    );
  }

  const name = config.platformName;
  await content.seedMessage(
    'message:welcome:demo',
    deps.demoUserId,
    {
      titleEn: `Welcome to ${name}`,
      titlePt: `Boas-vindas ao ${name}`,
      bodyEn: `Hello, and welcome. This is a demo account in paper mode: your balance is virtual money granted for practice, and the markets are simulated.\n\nYou can buy and sell stocks on real order books, follow your holdings and see every balance change in your statement. Shares you buy are sellable from the next trading day (T+1).\n\nNothing here is investment advice, and no one can promise you returns. ${name} staff will never ask for your password or for a payment to release funds.`,
      bodyPt: `Olá, boas-vindas. Esta é uma conta de demonstração no modo simulado: o seu saldo é dinheiro virtual concedido para praticar, e os mercados são simulados.\n\nVocê pode comprar e vender ações em livros de ofertas reais, acompanhar a sua carteira e ver cada mudança de saldo no seu extrato. As ações compradas podem ser vendidas a partir do próximo dia de negociação (T+1).\n\nNada aqui é recomendação de investimento, e ninguém pode prometer retorno. A equipe do ${name} nunca pedirá a sua senha nem um pagamento para liberar fundos.`,
    },
    now - 10 * 60_000,
  );
}
