// Owns the exchange calendars as data: time zones, session hours, holidays, early closes, settlement lags.
// Must hold: every rule that changes with time (hours, holidays) lives here, not in calendar.ts; each list names
// its source and must be re-checked against the exchange's current circular before a live deployment.
// Must not: contain logic beyond small constructors.

export type ExchangeId = 'NSE' | 'BSE' | 'NYSE' | 'NASDAQ' | 'B3' | 'CRYPTO' | 'FX';

export const EXCHANGE_IDS: readonly ExchangeId[] = ['NSE', 'BSE', 'NYSE', 'NASDAQ', 'B3', 'CRYPTO', 'FX'];

export type ExchangeCalendar = {
  readonly exchange: ExchangeId;
  readonly name: string;
  readonly timeZone: string;
  /** Trades every day around the clock (crypto). Its "session" is the UTC day, used for daily statistics. */
  readonly alwaysOpen: boolean;
  /** ISO weekdays with a regular session (1 = Monday … 7 = Sunday). */
  readonly weekdays: readonly number[];
  /** Regular session, local wall-clock 'HH:MM' ('24:00' ends at the next midnight). Prices move only inside it. */
  readonly open: string;
  readonly close: string;
  /** B3 only: the close while New York is on standard time (B3 keeps its gap to NYSE: DOMAIN.md). */
  readonly closeWhileNewYorkOnStandardTime: string | null;
  /** Call auction before the open (orders collected, no trades), minutes. */
  readonly preOpenMinutes: number;
  /** Closing call at the end of the regular session (included in it), minutes. */
  readonly closingAuctionMinutes: number;
  /** A separate after-close session that trades at the closing price (NSE 15:40–16:00), or null. */
  readonly postClose: { readonly start: string; readonly end: string } | null;
  /** A weekend or holiday separates sessions, so the first step of a session carries an overnight gap. */
  readonly hasOvernightGap: boolean;
  readonly holidays: Readonly<Record<string, string>>;
  /** Local date → early close 'HH:MM'. */
  readonly earlyCloses: Readonly<Record<string, string>>;
  /** Local date → late open 'HH:MM' (B3 on Ash Wednesday). */
  readonly lateOpens: Readonly<Record<string, string>>;
  /** Years whose holidays are in `holidays`; outside them only weekends close the exchange. */
  readonly holidayYears: readonly number[];
  /** Business days from trade to settlement (T+1 India and US, D+2 B3 cash equities, 0 for crypto). */
  readonly settlementDays: number;
  /** Sessions per year, for turning annual volatility into per-step volatility. */
  readonly sessionsPerYear: number;
  readonly source: string;
};

// NSE and BSE trading holidays 2026 (NSE circular of December 2025 as best known; BSE publishes the same list).
// 2026-01-15 was declared separately for the Maharashtra municipal elections. RE-CHECK before live use.
const INDIA_HOLIDAYS_2026: Record<string, string> = {
  '2026-01-15': 'Municipal Corporation elections (Maharashtra)',
  '2026-01-26': 'Republic Day',
  '2026-03-03': 'Holi',
  '2026-03-26': 'Shri Ram Navami',
  '2026-03-31': 'Shri Mahavir Jayanti',
  '2026-04-03': 'Good Friday',
  '2026-04-14': 'Dr. Baba Saheb Ambedkar Jayanti',
  '2026-05-01': 'Maharashtra Day',
  '2026-05-28': 'Bakri Id',
  '2026-06-26': 'Muharram',
  '2026-09-14': 'Ganesh Chaturthi',
  '2026-10-02': 'Mahatma Gandhi Jayanti',
  '2026-10-20': 'Dussehra',
  '2026-11-10': 'Diwali Balipratipada',
  '2026-11-24': 'Prakash Gurpurb Sri Guru Nanak Dev',
  '2026-12-25': 'Christmas',
};

// NSE/BSE 2027: PROVISIONAL. The exchanges publish the list in December 2026; these are the weekday dates of
// the festivals they usually close for (lunar dates estimated). Replace with the circular when it is out.
const INDIA_HOLIDAYS_2027: Record<string, string> = {
  '2027-01-26': 'Republic Day',
  '2027-03-22': 'Holi',
  '2027-03-26': 'Good Friday',
  '2027-04-14': 'Dr. Baba Saheb Ambedkar Jayanti',
  '2027-04-15': 'Shri Ram Navami',
  '2027-05-17': 'Bakri Id',
  '2027-06-15': 'Muharram',
  '2027-10-29': 'Diwali Laxmi Pujan',
};

// NYSE and Nasdaq holidays 2026–2027 (NYSE "Holidays and Trading Hours" page, rule 7.2). RE-CHECK before live use.
const US_HOLIDAYS: Record<string, string> = {
  '2026-01-01': "New Year's Day",
  '2026-01-19': 'Martin Luther King Jr. Day',
  '2026-02-16': "Washington's Birthday",
  '2026-04-03': 'Good Friday',
  '2026-05-25': 'Memorial Day',
  '2026-06-19': 'Juneteenth National Independence Day',
  '2026-07-03': 'Independence Day (observed)',
  '2026-09-07': 'Labor Day',
  '2026-11-26': 'Thanksgiving Day',
  '2026-12-25': 'Christmas Day',
  '2027-01-01': "New Year's Day",
  '2027-01-18': 'Martin Luther King Jr. Day',
  '2027-02-15': "Washington's Birthday",
  '2027-03-26': 'Good Friday',
  '2027-05-31': 'Memorial Day',
  '2027-06-18': 'Juneteenth National Independence Day (observed)',
  '2027-07-05': 'Independence Day (observed)',
  '2027-09-06': 'Labor Day',
  '2027-11-25': 'Thanksgiving Day',
  '2027-12-24': 'Christmas Day (observed)',
};

// NYSE/Nasdaq close at 13:00 on the day after Thanksgiving and on Christmas Eve when it is a weekday session.
const US_EARLY_CLOSES: Record<string, string> = {
  '2026-11-27': '13:00',
  '2026-12-24': '13:00',
  '2027-11-26': '13:00',
};

// B3 holidays 2026–2027 (B3 "Trading calendar"; national holidays plus Carnival, Christmas Eve and New Year's
// Eve). Carnival and Corpus Christi follow Easter (5 April 2026, 28 March 2027). RE-CHECK before live use.
const B3_HOLIDAYS: Record<string, string> = {
  '2026-01-01': 'Confraternização Universal',
  '2026-02-16': 'Carnaval',
  '2026-02-17': 'Carnaval',
  '2026-04-03': 'Paixão de Cristo',
  '2026-04-21': 'Tiradentes',
  '2026-05-01': 'Dia do Trabalho',
  '2026-06-04': 'Corpus Christi',
  '2026-09-07': 'Independência do Brasil',
  '2026-10-12': 'Nossa Senhora Aparecida',
  '2026-11-02': 'Finados',
  '2026-11-20': 'Dia Nacional de Zumbi e da Consciência Negra',
  '2026-12-24': 'Véspera de Natal',
  '2026-12-25': 'Natal',
  '2026-12-31': 'Véspera de Ano Novo',
  '2027-01-01': 'Confraternização Universal',
  '2027-02-08': 'Carnaval',
  '2027-02-09': 'Carnaval',
  '2027-03-26': 'Paixão de Cristo',
  '2027-04-21': 'Tiradentes',
  '2027-05-27': 'Corpus Christi',
  '2027-09-07': 'Independência do Brasil',
  '2027-10-12': 'Nossa Senhora Aparecida',
  '2027-11-02': 'Finados',
  '2027-11-15': 'Proclamação da República',
  '2027-12-24': 'Véspera de Natal',
  '2027-12-31': 'Véspera de Ano Novo',
};

// Ash Wednesday: B3 opens at 13:00.
const B3_LATE_OPENS: Record<string, string> = {
  '2026-02-18': '13:00',
  '2027-02-10': '13:00',
};

const WEEKDAYS = [1, 2, 3, 4, 5];
const INDIA_SOURCE = 'NSE/BSE holiday circulars (2026 as best known; 2027 provisional): re-check before live use';
const US_SOURCE = 'NYSE holidays and trading hours (rule 7.2), Nasdaq follows NYSE: re-check before live use';

const india = (exchange: 'NSE' | 'BSE', name: string): ExchangeCalendar => ({
  exchange,
  name,
  timeZone: 'Asia/Kolkata',
  alwaysOpen: false,
  weekdays: WEEKDAYS,
  open: '09:15',
  close: '15:30',
  closeWhileNewYorkOnStandardTime: null,
  preOpenMinutes: 15,
  closingAuctionMinutes: 0,
  postClose: { start: '15:40', end: '16:00' },
  hasOvernightGap: true,
  holidays: { ...INDIA_HOLIDAYS_2026, ...INDIA_HOLIDAYS_2027 },
  earlyCloses: {},
  lateOpens: {},
  holidayYears: [2026, 2027],
  settlementDays: 1,
  sessionsPerYear: 250,
  source: INDIA_SOURCE,
});

const us = (exchange: 'NYSE' | 'NASDAQ', name: string): ExchangeCalendar => ({
  exchange,
  name,
  timeZone: 'America/New_York',
  alwaysOpen: false,
  weekdays: WEEKDAYS,
  open: '09:30',
  close: '16:00',
  closeWhileNewYorkOnStandardTime: null,
  preOpenMinutes: 0,
  closingAuctionMinutes: 0,
  postClose: null,
  hasOvernightGap: true,
  holidays: US_HOLIDAYS,
  earlyCloses: US_EARLY_CLOSES,
  lateOpens: {},
  holidayYears: [2026, 2027],
  settlementDays: 1,
  sessionsPerYear: 252,
  source: US_SOURCE,
});

export const CALENDARS: Readonly<Record<ExchangeId, ExchangeCalendar>> = {
  NSE: india('NSE', 'National Stock Exchange of India'),
  BSE: india('BSE', 'BSE (Bombay Stock Exchange)'),
  NYSE: us('NYSE', 'New York Stock Exchange'),
  NASDAQ: us('NASDAQ', 'Nasdaq Stock Market'),
  B3: {
    exchange: 'B3',
    name: 'B3 S.A. – Brasil, Bolsa, Balcão',
    timeZone: 'America/Sao_Paulo',
    alwaysOpen: false,
    weekdays: WEEKDAYS,
    // While New York is on daylight saving time (March–November): pre-opening 09:45, trading 10:00–16:55,
    // closing call 16:55–17:00. While it is on standard time, B3 closes one hour later (17:55, call to 18:00).
    open: '10:00',
    close: '17:00',
    closeWhileNewYorkOnStandardTime: '18:00',
    preOpenMinutes: 15,
    closingAuctionMinutes: 5,
    postClose: null,
    hasOvernightGap: true,
    holidays: B3_HOLIDAYS,
    earlyCloses: {},
    lateOpens: B3_LATE_OPENS,
    holidayYears: [2026, 2027],
    settlementDays: 2,
    sessionsPerYear: 250,
    source: 'B3 trading calendar and trading hours pages: re-check before live use',
  },
  CRYPTO: {
    exchange: 'CRYPTO',
    name: 'Bourse crypto spot (the platform is the exchange)',
    timeZone: 'UTC',
    alwaysOpen: true,
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    open: '00:00',
    close: '24:00',
    closeWhileNewYorkOnStandardTime: null,
    preOpenMinutes: 0,
    closingAuctionMinutes: 0,
    postClose: null,
    hasOvernightGap: false,
    holidays: {},
    earlyCloses: {},
    lateOpens: {},
    holidayYears: [],
    settlementDays: 0,
    sessionsPerYear: 365,
    source: 'trades around the clock; daily statistics use the UTC day, as Binance does',
  },
  FX: {
    exchange: 'FX',
    name: 'Foreign exchange (over the counter)',
    // Simplification: the FX week is Monday 00:00 to Saturday 00:00 UTC (the real market runs Sunday ~22:00
    // to Friday ~22:00 UTC), one session per UTC day.
    timeZone: 'UTC',
    alwaysOpen: false,
    weekdays: WEEKDAYS,
    open: '00:00',
    close: '24:00',
    closeWhileNewYorkOnStandardTime: null,
    preOpenMinutes: 0,
    closingAuctionMinutes: 0,
    postClose: null,
    hasOvernightGap: false,
    holidays: {},
    earlyCloses: {},
    lateOpens: {},
    holidayYears: [],
    settlementDays: 2,
    sessionsPerYear: 260,
    source: 'simplified 24×5 week in UTC',
  },
};
