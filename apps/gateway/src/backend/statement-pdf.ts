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

/**
 * A statement as a PDF (A4, one line per entry, the balance after each), written while
 * the entries arrive: the next ones are read only when the answer has taken what was
 * written, so a long statement is never held whole.
 */
export function statementPdf(summary: StatementSummary, entries: AsyncIterable<AccountingEntryView>): Readable {
  const { amounts, currency } = summary;
  /** An entry's amount (at most MAX_STORED_AMOUNT: exact as a JSON number) with the currency's decimals. */
  const amount = (value: number) => formatAmount(toMilli(value), currency);
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `Statement of client ${summary.clientId}, ${summary.from} to ${summary.to}` } });
  const out = new PassThrough();
  doc.pipe(out);
  /** The text cut (with …) to the column's width: one line per entry. */
  const fit = (text: string, width: number) => {
    if (doc.widthOfString(text) <= width) return text;
    // The longest prefix that fits, by bisection (names run to 500 characters).
    let [fits, tooLong] = [0, text.length];
    while (tooLong - fits > 1) {
      const middle = (fits + tooLong) >> 1;
      if (doc.widthOfString(`${text.slice(0, middle)}…`) <= width) fits = middle;
      else tooLong = middle;
    }
    return `${text.slice(0, fits)}…`;
  };
  /** An amount is never cut: one too wide for its column is written smaller. */
  const amountCell = (text: string, column: (typeof COLUMNS)[number], y: number) => {
    const size = Math.min(FONT_SIZE, (FONT_SIZE * column.width) / Math.max(doc.widthOfString(text), 1));
    doc.fontSize(size).text(text, column.x, y + (FONT_SIZE - size), { width: column.width, align: 'right', lineBreak: false }).fontSize(FONT_SIZE);
  };
  const row = (cells: string[]) => {
    if (doc.y > doc.page.height - 60) doc.addPage();
    const y = doc.y;
    cells.forEach((cell, i) => {
      const column = COLUMNS[i];
      if (column.align === 'right') amountCell(cell, column, y);
      else doc.text(fit(cell, column.width), column.x, y, { width: column.width, lineBreak: false });
    });
    doc.x = 40;
    // Below the line, whatever size its last cell was written in.
    doc.y = y + doc.currentLineHeight(true);
    doc.moveDown(0.3);
  };
  void (async () => {
    doc.fontSize(16).text(`Statement · client ${summary.clientId}`);
    doc.fontSize(10).fillColor('#555').text(`${summary.from} to ${summary.to} (UTC) · ${summary.currency}`).fillColor('#000').moveDown();
    doc.fontSize(FONT_SIZE);
    row(COLUMNS.map((column) => column.title));
    row([summary.from, '', 'Opening balance', '', '', amounts.openingBalance]);
    // bigint, from the exact opening balance: a ledger's running balance has no limit.
    let balance = toMilliBig(amounts.openingBalance);
    let written = 0;
    for await (const entry of entries) {
      balance += BigInt(toMilli(entry.credit) - toMilli(entry.debit));
      row([entry.createdAt.slice(0, 10), String(entry.id), entry.name, amount(entry.debit), amount(entry.credit), formatAmount(balance, currency)]);
      if (++written % 100 === 0 && out.writableNeedDrain) await once(out, 'drain');
    }
    row([summary.to, '', 'Closing balance', amounts.totalDebits, amounts.totalCredits, amounts.closingBalance]);
    doc.moveDown().fontSize(10);
    doc.text(`Credit limit ${amounts.creditLimit} · available at the end ${amounts.availableAtEnd} ${currency}`, 40);
    doc.end();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
