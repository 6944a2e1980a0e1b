// Monthly statements (PRODUCT.md rule 8): every ledger line a customer owns in one calendar month of the
// deployment's market time zone, per wallet and asset: opening balance + lines = closing balance, each
// line with its cause, link and note, as JSON, CSV (csv-stringify, formula cells escaped) or PDF (pdfkit
// with DejaVu Sans embedded, which has ₹ and R$). Must hold: amounts are exact (bigint minor units);
// opening and closing are summed independently of the month's lines. Must not: change anything.

import { createRequire } from 'node:module';
import type { Lang, StatementView } from '@bourse/contract';
import type { Db } from '@bourse/db';
import { zonedParts, zonedTimeToMs } from '@bourse/market';
import { formatDecimal } from '@bourse/money';
import { stringify } from 'csv-stringify/sync';
import PDFDocument from 'pdfkit';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import * as repo from './repo.ts';

const FONT_PATH = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD_FONT_PATH = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** The deployment's stock market's zone: a statement's month and times are in it. */
export const MARKET_TIME_ZONES = { IN: 'Asia/Kolkata', US: 'America/New_York', BR: 'America/Sao_Paulo' } as const;

/** What a line's source says about it, by link (an adjustment's reason); the app wires the sources. */
export type LineNotes = (userId: number, links: readonly string[]) => Promise<ReadonlyMap<string, string>>;

type Line = StatementView['lines'][number];

export class Statements {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #clock: Clock;
  readonly #timeZone: string;
  readonly #virtual: boolean;
  readonly #notes: LineNotes;
  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    clock: Clock;
    timeZone: string;
    virtual: boolean;
    notes: LineNotes;
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#clock = deps.clock;
    this.#timeZone = deps.timeZone;
    this.#virtual = deps.virtual;
    this.#notes = deps.notes;
  }

  #scale(asset: string): number {
    return this.#engine.state.asset(asset)?.scale ?? 0;
  }

  /** The month's bounds [fromMs, toMs) in the deployment's zone; a month after the current one is refused. */
  #bounds(month: string): { fromMs: number; toMs: number } {
    const [year, mon] = month.split('-').map(Number) as [number, number];
    const now = zonedParts(this.#clock.now(), this.#timeZone);
    if (year < 2000 || year * 12 + mon > now.year * 12 + now.month) throw new AppError('statement_month_invalid');
    const first = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`;
    const next = mon === 12 ? first(year + 1, 1) : first(year, mon + 1);
    return {
      fromMs: zonedTimeToMs(first(year, mon), '00:00', this.#timeZone),
      toMs: zonedTimeToMs(next, '00:00', this.#timeZone),
    };
  }

  async build(userId: number, month: string): Promise<StatementView> {
    const { fromMs, toMs } = this.#bounds(month);
    const owner = String(userId);
    const rows = await repo.userTransfersBefore(this.#db, owner, toMs);
    type Totals = { opening: bigint; credits: bigint; debits: bigint; closing: bigint };
    const totals = new Map<string, Totals>();
    const raw: { row: repo.TransferRow; key: string; minor: bigint }[] = [];
    for (const row of rows) {
      const amount = BigInt(row.amount);
      // A transfer between two of the customer's own wallets is a line on each.
      for (const [account, signed] of [
        [row.debit, -amount],
        [row.credit, amount],
      ] as const) {
        if (!account.startsWith(`${owner}/`)) continue;
        const key = account.slice(owner.length + 1);
        const t = totals.get(key) ?? { opening: 0n, credits: 0n, debits: 0n, closing: 0n };
        totals.set(key, t);
        // Closing is every line before the month's end; opening every line before its start.
        t.closing += signed;
        if (Number(row.at) < fromMs) {
          t.opening += signed;
          continue;
        }
        if (signed > 0n) t.credits += signed;
        else t.debits -= signed;
        raw.push({ row, key, minor: signed });
      }
    }
    const notes = await this.#notes(userId, [...new Set(raw.map((r) => r.row.link))]);
    const lines: Line[] = raw.map(({ row, key, minor }) => {
      const [wallet = '', asset = ''] = key.split('/');
      return {
        id: row.transfer_id,
        at: Number(row.at),
        wallet,
        asset,
        amount: formatDecimal(minor, this.#scale(asset)),
        balance: '',
        cause: row.cause,
        link: row.link,
        note: notes.get(row.link) ?? '',
      };
    });
    // Balance after each line, from the opening balance forward.
    const running = new Map([...totals].map(([key, t]) => [key, t.opening]));
    raw.forEach(({ key, minor }, i) => {
      const after = (running.get(key) ?? 0n) + minor;
      running.set(key, after);
      (lines[i] as Line).balance = formatDecimal(after, this.#scale(key.split('/')[1] ?? ''));
    });
    const accounts = [...totals]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, t]) => {
        const [wallet = '', asset = ''] = key.split('/');
        const scale = this.#scale(asset);
        return {
          wallet,
          asset,
          opening: formatDecimal(t.opening, scale),
          credits: formatDecimal(t.credits, scale),
          debits: formatDecimal(t.debits, scale),
          closing: formatDecimal(t.closing, scale),
        };
      });
    return { userId, month, timeZone: this.#timeZone, fromMs, toMs, virtual: this.#virtual, accounts, lines };
  }

  /** A time as the statement prints it: YYYY-MM-DD HH:MM:SS in the statement's zone. */
  #time(ms: number): string {
    const p = zonedParts(ms, this.#timeZone);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${p.date} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
  }

  /**
   * CSV: a header block (who, which month, which zone, virtual money), one summary row per account, then
   * one row per line. Amounts are in unsigned credit and debit columns, so no number starts with "-";
   * any cell starting with = + - @ (a note someone typed) is escaped by csv-stringify (escape_formulas).
   */
  csv(s: StatementView, lang: Lang): string {
    const l = LABELS[lang];
    const records: string[][] = [
      [l.title, s.month],
      [l.customer, String(s.userId)],
      [l.period, `${this.#time(s.fromMs)} – ${this.#time(s.toMs)}`],
      [l.timeZone, s.timeZone],
      ...(s.virtual ? [[l.virtual]] : []),
      [],
      [l.wallet, l.asset, l.opening, l.credits, l.debits, l.closing],
      ...s.accounts.map((a) => [a.wallet, a.asset, a.opening, a.credits, a.debits, a.closing]),
      [],
      [l.time, l.wallet, l.asset, l.cause, l.credit, l.debit, l.balance, l.link, l.note, l.transfer],
      ...s.lines.map((line) => {
        const credit = !line.amount.startsWith('-');
        const unsigned = credit ? line.amount : line.amount.slice(1);
        return [
          this.#time(line.at),
          line.wallet,
          line.asset,
          causeLabel(line.cause, lang),
          credit ? unsigned : '',
          credit ? '' : unsigned,
          line.balance,
          line.link,
          line.note,
          line.id,
        ];
      }),
    ];
    return stringify(records, { escape_formulas: true, record_delimiter: 'windows' });
  }

  /** PDF: the same content on A4 pages, in DejaVu Sans (embedded). */
  pdf(s: StatementView, lang: Lang): Promise<Buffer> {
    const l = LABELS[lang];
    const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `${l.title} ${s.month}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
    doc.registerFont('body', FONT_PATH);
    doc.registerFont('bold', BOLD_FONT_PATH);
    doc.font('bold').fontSize(16).text(`${l.title} · ${s.month}`);
    doc.font('body').fontSize(9).moveDown(0.5);
    doc.text(`${l.customer}: ${s.userId}`);
    doc.text(`${l.period}: ${this.#time(s.fromMs)} – ${this.#time(s.toMs)} (${s.timeZone})`);
    if (s.virtual) doc.font('bold').fillColor('#b45309').text(l.virtual).fillColor('black').font('body');
    doc.moveDown();
    const table = (widths: number[], cells: string[], bold = false, right: readonly number[] = []) => {
      if (doc.y > doc.page.height - 60) doc.addPage();
      const y = doc.y;
      let x = doc.page.margins.left;
      doc.font(bold ? 'bold' : 'body');
      let height = 0;
      cells.forEach((cell, i) => {
        const width = widths[i] ?? 60;
        doc.text(cell, x, y, { width: width - 8, align: right.includes(i) ? 'right' : 'left' });
        height = Math.max(height, doc.y - y);
        x += width;
      });
      doc.x = doc.page.margins.left;
      doc.y = y + height + 3;
    };
    const summary = [70, 55, 100, 100, 100, 100];
    const sumRight = [2, 3, 4, 5];
    const m = (value: string, asset: string) => moneyText(value, asset, lang);
    doc.fontSize(8);
    table(summary, [l.wallet, l.asset, l.opening, l.credits, l.debits, l.closing], true, sumRight);
    for (const a of s.accounts) {
      const row = [a.wallet, a.asset, m(a.opening, a.asset), m(a.credits, a.asset), m(a.debits, a.asset)];
      table(summary, [...row, m(a.closing, a.asset)], false, sumRight);
    }
    if (s.accounts.length === 0) doc.text(l.noAccounts);
    doc.moveDown();
    const lineWidths = [72, 52, 36, 70, 85, 90, 110];
    const lineRight = [4, 5];
    const head = [l.time, l.wallet, l.asset, l.cause, l.amount, l.balance, `${l.link} · ${l.note}`];
    table(lineWidths, head, true, lineRight);
    for (const line of s.lines) {
      table(
        lineWidths,
        [
          this.#time(line.at),
          line.wallet,
          line.asset,
          causeLabel(line.cause, lang),
          m(line.amount, line.asset),
          m(line.balance, line.asset),
          line.note ? `${line.link} · ${line.note}` : line.link,
        ],
        false,
        lineRight,
      );
    }
    if (s.lines.length === 0) doc.text(l.noLines);
    doc.end();
    return done;
  }
}

const CAUSES: Record<Lang, Record<string, string>> = {
  'en-US': {
    trade: 'Trade',
    fee: 'Fee',
    deposit: 'Deposit',
    withdrawal: 'Withdrawal',
    paper_grant: 'Virtual money grant',
    wallet_transfer: 'Transfer between wallets',
    refund: 'Refund',
    adjustment: 'Manual adjustment',
    convert: 'Currency exchange',
    option: 'Option',
  },
  'pt-BR': {
    trade: 'Negociação',
    fee: 'Tarifa',
    deposit: 'Depósito',
    withdrawal: 'Saque',
    paper_grant: 'Crédito de dinheiro virtual',
    wallet_transfer: 'Transferência entre carteiras',
    refund: 'Reembolso',
    adjustment: 'Ajuste manual',
    convert: 'Câmbio',
    option: 'Opção',
  },
};

const SYMBOLS: Readonly<Record<string, string>> = { INR: '₹', USD: '$', BRL: 'R$' };

/**
 * A decimal string with the currency's symbol and the language's grouping, digit for digit (no float):
 * "-1234567.50" INR → "-₹1,234,567.50"; in pt-BR BRL "R$ 1.234.567,50". Other assets keep their code.
 */
export function moneyText(value: string, asset: string, lang: Lang): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const [, sign = '', whole = '', fraction] = match;
  const [group, point] = lang === 'pt-BR' ? ['.', ','] : [',', '.'];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const number = fraction === undefined ? grouped : `${grouped}${point}${fraction}`;
  const symbol = SYMBOLS[asset];
  if (!symbol) return `${sign}${number} ${asset}`;
  return lang === 'pt-BR' ? `${sign}${symbol} ${number}` : `${sign}${symbol}${number}`;
}

function causeLabel(cause: string, lang: Lang): string {
  return CAUSES[lang][cause] ?? cause;
}

const LABELS = {
  'en-US': {
    title: 'Statement',
    customer: 'Customer ID',
    period: 'Period',
    timeZone: 'Times in',
    virtual: 'Paper trading: virtual money, not real funds',
    wallet: 'Wallet',
    asset: 'Asset',
    opening: 'Opening balance',
    credits: 'Credits',
    debits: 'Debits',
    closing: 'Closing balance',
    time: 'Time',
    cause: 'Cause',
    credit: 'Credit',
    debit: 'Debit',
    amount: 'Amount',
    balance: 'Balance after',
    link: 'Reference',
    note: 'Note',
    transfer: 'Transfer ID',
    noAccounts: 'No balances in this period.',
    noLines: 'No movements in this period.',
  },
  'pt-BR': {
    title: 'Extrato',
    customer: 'ID do cliente',
    period: 'Período',
    timeZone: 'Horários em',
    virtual: 'Simulação: dinheiro virtual, não são fundos reais',
    wallet: 'Carteira',
    asset: 'Ativo',
    opening: 'Saldo inicial',
    credits: 'Créditos',
    debits: 'Débitos',
    closing: 'Saldo final',
    time: 'Horário',
    cause: 'Causa',
    credit: 'Crédito',
    debit: 'Débito',
    amount: 'Valor',
    balance: 'Saldo após',
    link: 'Referência',
    note: 'Observação',
    transfer: 'ID da transferência',
    noAccounts: 'Nenhum saldo neste período.',
    noLines: 'Nenhuma movimentação neste período.',
  },
} as const satisfies Record<Lang, Record<string, string>>;
