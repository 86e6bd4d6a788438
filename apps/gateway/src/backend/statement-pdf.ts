import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { AccountingEntryView, StatementSummary, milliToDecimal, toMilli } from '@hotel/contracts';

const COLUMNS = [
  { title: 'Date', x: 40, width: 62 },
  { title: 'Entry', x: 104, width: 50 },
  { title: 'Name', x: 156, width: 190 },
  { title: 'Debit', x: 348, width: 68, align: 'right' as const },
  { title: 'Credit', x: 418, width: 68, align: 'right' as const },
  { title: 'Balance', x: 488, width: 68, align: 'right' as const },
];

const amount = (value: number) => milliToDecimal(toMilli(value));

/**
 * A statement as a PDF (A4, one line per entry, the balance after each), written while
 * the entries arrive: the next ones are read only when the answer has taken what was
 * written, so a long statement is never held whole.
 */
export function statementPdf(summary: StatementSummary, entries: AsyncIterable<AccountingEntryView>): Readable {
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
  const row = (cells: string[]) => {
    if (doc.y > doc.page.height - 60) doc.addPage();
    const y = doc.y;
    cells.forEach((cell, i) => doc.text(fit(cell, COLUMNS[i].width), COLUMNS[i].x, y, { width: COLUMNS[i].width, align: COLUMNS[i].align ?? 'left', lineBreak: false }));
    doc.x = 40;
    doc.moveDown(0.3);
  };
  void (async () => {
    doc.fontSize(16).text(`Statement · client ${summary.clientId}`);
    doc.fontSize(10).fillColor('#555').text(`${summary.from} to ${summary.to} (UTC) · ${summary.currency}`).fillColor('#000').moveDown();
    doc.fontSize(8);
    row(COLUMNS.map((column) => column.title));
    row([summary.from, '', 'Opening balance', '', '', amount(summary.openingBalance)]);
    let balance = toMilli(summary.openingBalance);
    let written = 0;
    for await (const entry of entries) {
      balance += toMilli(entry.credit) - toMilli(entry.debit);
      row([entry.createdAt.slice(0, 10), String(entry.id), entry.name, amount(entry.debit), amount(entry.credit), milliToDecimal(balance)]);
      if (++written % 100 === 0 && out.writableNeedDrain) await once(out, 'drain');
    }
    row([summary.to, '', 'Closing balance', amount(summary.totalDebits), amount(summary.totalCredits), amount(summary.closingBalance)]);
    doc.moveDown().fontSize(10);
    doc.text(`Credit limit ${amount(summary.creditLimit)} · available at the end ${amount(summary.availableAtEnd)} ${summary.currency}`, 40);
    doc.end();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
