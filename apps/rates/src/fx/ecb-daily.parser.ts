import { parseDay } from '@hotel/contracts';

/**
 * The European Central Bank's daily euro foreign exchange reference rates file
 * (`eurofxref-daily.xml`), read strictly. The format, unchanged since 2002:
 *
 *   <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"
 *                    xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
 *     <gesmes:subject>Reference rates</gesmes:subject> <gesmes:Sender>…</gesmes:Sender>
 *     <Cube><Cube time='2020-05-26'><Cube currency='USD' rate='1.0975'/>…</Cube></Cube>
 *   </gesmes:Envelope>
 *
 * A tiny reader of its own rather than an XML library: the file is a few kilobytes of
 * one fixed shape, and a general parser brings what must be refused here anyway (DTDs,
 * entities, CDATA). Only the daily file is taken: the 90-day and historic files (many
 * `time` cubes) are refused with a message saying so, rather than silently reduced to
 * their newest day. Every refusal says what is wrong, with its line.
 */

export const GESMES_NAMESPACE = 'http://www.gesmes.org/xml/2002-08-01';
export const EUROFXREF_NAMESPACE = 'http://www.ecb.int/vocabulary/2002-08-01/eurofxref';
/** The first day of the euro reference rates. */
export const FIRST_REFERENCE_DATE = '1999-01-04';

/** The ECB publishes about 30 currencies; a file of hundreds is not its daily file. */
const MAX_CURRENCIES = 200;
/** Bounds on a hostile file's shape (the real one has about 40 elements, 4 levels deep). */
const MAX_ELEMENTS = 1000;
const MAX_DEPTH = 8;
/** A positive decimal as the ECB writes it: no sign, no exponent, no leading zero (but "0.x"). */
const RATE = /^(0|[1-9]\d{0,9})(\.\d{1,10})?$/;
const CURRENCY = /^[A-Z]{3}$/;
const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const TAG_END = /\s*(\/?)>/y;
const XML_DECLARATION = /^<\?xml\s+version\s*=\s*(["'])1\.0\1(?:\s+encoding\s*=\s*(["'])utf-8\2)?(?:\s+standalone\s*=\s*(["'])(?:yes|no)\3)?\s*\?>/i;
/** What text may hold besides characters: the five predefined entities and character references. */
const TEXT_REFERENCE = /&(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[\da-fA-F]{1,6});/y;
/** Characters XML 1.0 refuses (C0 controls but tab, LF, CR), and U+FFFE/U+FFFF. */
const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** One day's rates: units of each currency per euro, as the file writes them. */
export interface EcbDailyRates {
  /** The reference date (YYYY-MM-DD). */
  date: string;
  /** By ISO 4217 code, in the file's order; EUR is not listed. */
  rates: Record<string, string>;
}

/** A file that is not the ECB's daily rates file: the message says why. */
export class EcbFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EcbFormatError';
  }
}

interface XmlElement {
  /** As written (`gesmes:Envelope`). */
  name: string;
  namespace: string | null;
  localName: string;
  /** Attributes other than namespace declarations, by name as written. */
  attributes: Map<string, string>;
  children: XmlElement[];
  /** Whether the element holds text other than whitespace. */
  hasText: boolean;
  line: number;
}

/**
 * Reads the ECB's daily file: its reference date and rates. `today` bounds the date
 * (a reference date later than tomorrow, UTC, would stay "in force" over every real
 * one after it). Throws EcbFormatError on anything else.
 */
export function parseEcbDaily(xml: string, today: Date = new Date()): EcbDailyRates {
  const root = readXml(xml);
  if (root.namespace !== GESMES_NAMESPACE || root.localName !== 'Envelope') {
    throw new EcbFormatError(`the root element is <${root.name}>, not the ECB's gesmes:Envelope (namespace ${GESMES_NAMESPACE})`);
  }
  expectAttributes(root, []);
  const cubes: XmlElement[] = [];
  for (const child of root.children) {
    if (isCube(child)) cubes.push(child);
    else if (child.namespace !== GESMES_NAMESPACE) {
      throw new EcbFormatError(`line ${child.line}: unexpected element <${child.name}> (namespace ${child.namespace ?? 'none'}) in the envelope; the rates are <Cube> of ${EUROFXREF_NAMESPACE}`);
    }
  }
  if (cubes.length !== 1) {
    throw new EcbFormatError(cubes.length === 0 ? `no <Cube> of the eurofxref vocabulary (namespace ${EUROFXREF_NAMESPACE})` : `line ${cubes[1].line}: more than one outer <Cube>`);
  }
  const outer = cubes[0];
  expectAttributes(outer, []);
  const days = outer.children;
  for (const day of days) if (!isCube(day)) throw new EcbFormatError(`line ${day.line}: unexpected element <${day.name}> among the days`);
  if (days.length === 0) throw new EcbFormatError("no date: the file has no <Cube time='YYYY-MM-DD'>");
  if (days.length > 1) {
    throw new EcbFormatError(
      `${days.length} reference dates: only the ECB's daily file (eurofxref-daily.xml, one day) is taken, not the 90-day or historic files`,
    );
  }
  return { date: referenceDate(days[0], today), rates: dayRates(days[0]) };
}

function referenceDate(day: XmlElement, today: Date): string {
  expectAttributes(day, ['time']);
  const date = day.attributes.get('time')!;
  if (!parseDay(date)) throw new EcbFormatError(`line ${day.line}: time '${date}' is not a date YYYY-MM-DD`);
  if (date < FIRST_REFERENCE_DATE) throw new EcbFormatError(`line ${day.line}: ${date} is before the first euro reference rates (${FIRST_REFERENCE_DATE})`);
  const tomorrow = new Date(today.getTime() + 86_400_000).toISOString().slice(0, 10);
  if (date > tomorrow) throw new EcbFormatError(`line ${day.line}: ${date} is in the future`);
  return date;
}

function dayRates(day: XmlElement): Record<string, string> {
  const rates = new Map<string, string>();
  for (const cube of day.children) {
    const where = `line ${cube.line}`;
    if (!isCube(cube)) throw new EcbFormatError(`${where}: unexpected element <${cube.name}> among the rates`);
    expectAttributes(cube, ['currency', 'rate']);
    if (cube.children.length > 0) throw new EcbFormatError(`${where}: a rate's <Cube> has no elements inside`);
    const currency = cube.attributes.get('currency')!;
    const rate = cube.attributes.get('rate')!;
    if (!CURRENCY.test(currency)) throw new EcbFormatError(`${where}: currency '${currency}' is not three capital letters`);
    if (currency === 'EUR') throw new EcbFormatError(`${where}: EUR is listed; the rates are per euro, which is never listed`);
    if (rates.has(currency)) throw new EcbFormatError(`${where}: ${currency} is listed twice`);
    if (!RATE.test(rate) || /^0(\.0+)?$/.test(rate)) {
      throw new EcbFormatError(`${where}: the rate of ${currency} '${rate}' is not a positive decimal (such as 1.0975)`);
    }
    rates.set(currency, rate);
    if (rates.size > MAX_CURRENCIES) throw new EcbFormatError(`more than ${MAX_CURRENCIES} currencies`);
  }
  if (rates.size === 0) throw new EcbFormatError(`line ${day.line}: no rates for ${day.attributes.get('time')}`);
  return Object.fromEntries(rates);
}

function isCube(element: XmlElement): boolean {
  return element.namespace === EUROFXREF_NAMESPACE && element.localName === 'Cube';
}

function expectAttributes(element: XmlElement, names: string[]) {
  for (const name of names) {
    if (!element.attributes.has(name)) throw new EcbFormatError(`line ${element.line}: <${element.name}> has no ${name}`);
  }
  for (const name of element.attributes.keys()) {
    if (!names.includes(name)) throw new EcbFormatError(`line ${element.line}: <${element.name}> has an unexpected attribute ${name}`);
  }
  if (element.hasText) throw new EcbFormatError(`line ${element.line}: <${element.name}> holds text`);
}

/**
 * A well-formedness check and tree of a small XML document: elements, attributes,
 * namespaces, text, comments and the XML declaration. Anything else (DOCTYPE,
 * entity declarations or references, CDATA, processing instructions) is refused.
 */
function readXml(xml: string): XmlElement {
  if (typeof xml !== 'string' || xml.length === 0) throw new EcbFormatError('the file is empty');
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  const forbidden = FORBIDDEN_CHARACTER.exec(text);
  if (forbidden) throw new EcbFormatError(`line ${lineAt(text, forbidden.index)}: a control character (U+${forbidden[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()})`);
  let position = 0;
  if (text.startsWith('<?xml')) {
    const declaration = XML_DECLARATION.exec(text);
    if (!declaration) throw new EcbFormatError('line 1: the XML declaration must say version 1.0 and, if any, encoding UTF-8');
    position = declaration[0].length;
  }

  const open: { element: XmlElement; scope: Map<string, string> }[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  const fail = (message: string, at = position): never => {
    throw new EcbFormatError(`line ${lineAt(text, at)}: ${message}`);
  };

  while (position < text.length) {
    const next = text.indexOf('<', position);
    const end = next === -1 ? text.length : next;
    if (end > position) readText(text, position, end, open.at(-1)?.element, fail);
    if (next === -1) break;
    position = next;
    if (text.startsWith('<!--', position)) {
      const close = text.indexOf('-->', position + 4);
      if (close === -1) fail('a comment is not closed');
      if (text.slice(position + 4, close).includes('--')) fail("'--' inside a comment");
      position = close + 3;
    } else if (/^<!(DOCTYPE|ENTITY)/i.test(text.slice(position, position + 9))) {
      fail('DOCTYPE and entity declarations are refused (no DTD, no external entities)');
    } else if (text.startsWith('<!', position)) {
      fail('CDATA and other <! markup are not part of the format');
    } else if (text.startsWith('<?', position)) {
      fail('processing instructions are not part of the format');
    } else if (text.startsWith('</', position)) {
      NAME.lastIndex = position + 2;
      const name = NAME.exec(text)?.[0];
      const close = name === undefined ? null : /\s*>/y;
      if (close) close.lastIndex = position + 2 + name!.length;
      if (!close || !close.exec(text)) fail('a malformed end tag');
      const current = open.pop();
      if (!current || current.element.name !== name) fail(current ? `</${name}> closes <${current.element.name}>` : `</${name}> closes nothing`);
      position = close!.lastIndex;
    } else {
      if (root && open.length === 0) fail('more than one root element');
      const tag = readStartTag(text, position, open.at(-1)?.scope ?? new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]), fail);
      if (++elements > MAX_ELEMENTS) fail(`more than ${MAX_ELEMENTS} elements`);
      const parent = open.at(-1)?.element;
      if (parent) parent.children.push(tag.element);
      else root = tag.element;
      if (!tag.selfClosing) {
        open.push({ element: tag.element, scope: tag.scope });
        if (open.length > MAX_DEPTH) fail(`elements nested more than ${MAX_DEPTH} deep`);
      }
      position = tag.end;
    }
  }
  if (open.length > 0) throw new EcbFormatError(`<${open.at(-1)!.element.name}> (line ${open.at(-1)!.element.line}) is not closed`);
  if (!root) throw new EcbFormatError('no root element: this is not an XML document');
  return root;
}

function readText(text: string, start: number, end: number, parent: XmlElement | undefined, fail: (message: string, at?: number) => never) {
  const chunk = text.slice(start, end);
  if (/^\s*$/.test(chunk)) return;
  if (!parent) fail('text outside the root element', start + chunk.search(/\S/));
  for (let at = chunk.indexOf('&'); at !== -1; at = chunk.indexOf('&', at + 1)) {
    TEXT_REFERENCE.lastIndex = at;
    if (!TEXT_REFERENCE.test(chunk)) fail(`an entity reference other than &amp; &lt; &gt; &quot; &apos; or a character reference`, start + at);
  }
  if (chunk.includes(']]>')) fail("']]>' in text", start);
  parent!.hasText = true;
}

function readStartTag(text: string, start: number, parentScope: Map<string, string>, fail: (message: string, at?: number) => never) {
  NAME.lastIndex = start + 1;
  const name = NAME.exec(text)?.[0];
  if (name === undefined) fail('a malformed start tag');
  let position = start + 1 + name!.length;
  const written = new Map<string, string>();
  for (;;) {
    ATTRIBUTE.lastIndex = position;
    const attribute = ATTRIBUTE.exec(text);
    if (!attribute) break;
    const value = attribute[2] ?? attribute[3];
    if (written.has(attribute[1])) fail(`<${name}> has ${attribute[1]} twice`);
    if (value.includes('<')) fail(`'<' in the value of ${attribute[1]}`);
    if (value.includes('&')) fail(`an entity reference in the value of ${attribute[1]}`);
    written.set(attribute[1], value);
    position = ATTRIBUTE.lastIndex;
  }
  TAG_END.lastIndex = position;
  const end = TAG_END.exec(text);
  if (!end) fail(`<${name}> is malformed`, position);

  const scope = new Map(parentScope);
  const attributes = new Map<string, string>();
  for (const [attributeName, value] of written) {
    if (attributeName === 'xmlns') scope.set('', value);
    else if (attributeName.startsWith('xmlns:')) scope.set(attributeName.slice(6), value);
    else if (attributeName.includes(':')) fail(`<${name}> has a prefixed attribute ${attributeName}`);
    else attributes.set(attributeName, value);
  }
  const [prefix, localName] = name!.includes(':') ? name!.split(':') : ['', name!];
  const namespace = scope.get(prefix) || null;
  if (prefix !== '' && namespace === null) fail(`the namespace prefix ${prefix} of <${name}> is not declared`);
  const element: XmlElement = { name: name!, namespace, localName, attributes, children: [], hasText: false, line: lineAt(text, start) };
  return { element, scope, selfClosing: end![1] === '/', end: TAG_END.lastIndex };
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
