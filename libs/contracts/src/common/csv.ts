/**
 * CSV as RFC 4180 has it: fields separated by commas, records ended by CRLF, a field
 * with a comma, a quote or a line break quoted (quotes doubled). And safe to open in a
 * spreadsheet, whatever list separator its locale uses.
 *
 * A spreadsheet runs a cell as a formula when it starts with `=`, `+`, `-` or `@`, also
 * after leading whitespace or quotes (a reader that splits a quoted field keeps its
 * quote marks). A spreadsheet whose separator is `;` or a tab splits our
 * lines there (and at line breaks inside quoted fields, whose quotes it then ignores),
 * so every piece of a field after a `,`, `;`, tab or line break starts a cell of its own
 * there. So each such piece (the field's start included) that would be a formula gets a
 * leading `'`, which makes it text: ` =1+1` is written `' =1+1`, `a;=1+1` is
 * `a;'=1+1`. A field starting with a tab or a carriage return gets one too (some
 * readers drop them before looking for a formula).
 *
 * A plain number (such as a negative balance, -12.50) is left as it is, whole or as a
 * piece: it is no formula, and stays a number.
 */
const FORMULA_START = /^[\s"]*[=+\-@]/;
const PLAIN_NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;
/** Where a spreadsheet of some locale may start a new cell: the list separators in use (`,` `;` tab) and line breaks. */
const CELL_BREAK = /([,;\t\r\n])/;
const STARTS_WITH_CONTROL = /^[\t\r]/;

export type CsvValue = string | number | null | undefined;

/** Whether a spreadsheet would run this piece of a field as a formula. */
function runsAsFormula(piece: string): boolean {
  return FORMULA_START.test(piece) && !PLAIN_NUMBER.test(piece);
}

/** The text with a `'` before every piece a spreadsheet of any locale could run as a formula. */
export function formulaSafe(text: string): string {
  // split with a capturing group keeps the separators at the odd indexes.
  const parts = text.split(CELL_BREAK);
  for (let index = 2; index < parts.length; index += 2) {
    if (runsAsFormula(parts[index])) parts[index] = `'${parts[index]}`;
  }
  const safe = parts.join('');
  return runsAsFormula(parts[0]) || STARTS_WITH_CONTROL.test(text) ? `'${safe}` : safe;
}

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = formulaSafe(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF included. */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
