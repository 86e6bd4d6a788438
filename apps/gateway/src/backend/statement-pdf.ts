import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { AccountingEntryView, StatementSummary, formatAmount, toMilli, toMilliBig } from '@hotel/contracts';

const COLUMNS = [
  { title: 'Date', x: 40, width: 62 },
  { title: 'Entry', x: 104, width: 50 },
  { title: 'Name', x: 156, width: 160 },
  { title: 'Debit', x: 318, width: 78, align: 'right' as const },
  { title: 'Credit', x: 398, width: 78, align: 'right' as const },
  { title: 'Balance', x: 478, width: 77, align: 'right' as const },
];
const FONT_SIZE = 8;

/** A decimal amount with its thousands grouped: `1234567.50` → `1,234,567.50`, exactly (a string, whatever its size). */
export function groupedAmount(decimal: string): string {
  const [, sign, whole, fraction] = /^(-?)(\d+)(\.\d+)?$/.exec(decimal) ?? [];
  if (whole === undefined) return decimal;
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ?? ''}`;
}

/** Longest name kept on a statement line: about four lines of its column. */
const NAME_LIMIT = 240;

/**
 * A statement as a PDF (A4, a row per entry, the balance after each; amounts grouped in
 * thousands with the currency's decimals; a long name wrapped on its row, not cut), written
 * while the entries arrive: the next ones are read only when the answer has taken what
 * was written, so a long statement is never held whole. `clientName` titles it.
 */
export function statementPdf(summary: StatementSummary, entries: AsyncIterable<AccountingEntryView>, clientName: string | null = null): Readable {
  const { amounts, currency } = summary;
  /** An entry's amount (at most MAX_STORED_AMOUNT: exact as a JSON number) with the currency's decimals, grouped. */
  const amount = (value: number) => groupedAmount(formatAmount(toMilli(value), currency));
  const client = clientName ? `${clientName} (client ${summary.clientId})` : `client ${summary.clientId}`;
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `Statement of ${client}, ${summary.from} to ${summary.to}` } });
  const out = new PassThrough();
  doc.pipe(out);
  /** An amount is never cut: one too wide for its column is written smaller. */
  const amountCell = (text: string, column: (typeof COLUMNS)[number], y: number) => {
    const size = Math.min(FONT_SIZE, (FONT_SIZE * column.width) / Math.max(doc.widthOfString(text), 1));
    doc.fontSize(size).text(text, column.x, y + (FONT_SIZE - size), { width: column.width, align: 'right', lineBreak: false }).fontSize(FONT_SIZE);
  };
  const row = (cells: string[]) => {
    // A long name wraps within its column: the row is as tall as its tallest cell.
    const texts = cells.map((cell, i) => (COLUMNS[i].align === 'right' ? cell : cell.length > NAME_LIMIT ? `${cell.slice(0, NAME_LIMIT)}…` : cell));
    const height = Math.max(doc.currentLineHeight(true), ...texts.map((text, i) => (COLUMNS[i].align === 'right' ? 0 : doc.heightOfString(text, { width: COLUMNS[i].width }))));
    if (doc.y + height > doc.page.height - 50) doc.addPage();
    const y = doc.y;
    texts.forEach((text, i) => {
      const column = COLUMNS[i];
      if (column.align === 'right') amountCell(text, column, y);
      else doc.text(text, column.x, y, { width: column.width });
    });
    doc.x = 40;
    doc.y = y + height;
    doc.moveDown(0.3);
  };
  void (async () => {
    doc.fontSize(16).text(`Statement · ${client}`);
    doc.fontSize(10).fillColor('#555').text(`${summary.from} to ${summary.to} (UTC) · ${summary.currency}`).fillColor('#000').moveDown();
    doc.fontSize(FONT_SIZE);
    row(COLUMNS.map((column) => column.title));
    row([summary.from, '', 'Opening balance', '', '', groupedAmount(amounts.openingBalance)]);
    // bigint, from the exact opening balance: a ledger's running balance has no limit.
    let balance = toMilliBig(amounts.openingBalance);
    let written = 0;
    for await (const entry of entries) {
      balance += BigInt(toMilli(entry.credit) - toMilli(entry.debit));
      row([entry.createdAt.slice(0, 10), String(entry.id), entry.name, amount(entry.debit), amount(entry.credit), groupedAmount(formatAmount(balance, currency))]);
      if (++written % 100 === 0 && out.writableNeedDrain) await once(out, 'drain');
    }
    row([summary.to, '', 'Closing balance', groupedAmount(amounts.totalDebits), groupedAmount(amounts.totalCredits), groupedAmount(amounts.closingBalance)]);
    doc.moveDown().fontSize(10);
    doc.text(`Credit limit ${groupedAmount(amounts.creditLimit)} · available at the end ${groupedAmount(amounts.availableAtEnd)} ${currency}`, 40);
    doc.end();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
