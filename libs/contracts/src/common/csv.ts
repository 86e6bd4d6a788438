/**
 * CSV as RFC 4180 has it: fields separated by commas, records ended by CRLF, a field
 * with a comma, a quote or a line break quoted (quotes doubled). And safe to open in a
 * spreadsheet: a text field that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return would be read as a formula, so it gets a leading `'`. A plain number (such
 * as a negative balance, -12.50) is left as it is: it is no formula, and stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export type CsvValue = string | number | null | undefined;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF included. */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
