import { IncomingMessage } from 'node:http';
import { FastifyRequest } from 'fastify';
import { FieldError, unsafeStringReason } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';

/** Largest request body: 1 MiB. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * How much of a refused request's body is still read (and thrown away) after the
 * answer, so the client, still sending, can read that answer: a socket closed with
 * unread data in it is reset, and the reset can take the answer with it. Past this,
 * or past DRAIN_TIMEOUT_MS, the connection is closed.
 */
export const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 10_000;

/** Nesting and size of a JSON body, checked before anything is built from it. */
export const JSON_LIMITS = { maxDepth: 32, maxValues: 10_000 } as const;
export type JsonLimits = { maxDepth: number; maxValues: number };

/**
 * Names no field has, which reach or shadow an object's prototype when assigned
 * (`__proto__`, `constructor`) or which class-transformer silently skips, so that the
 * unknown-field rule would not see them (`toString`, `hasOwnProperty`, …).
 */
const FORBIDDEN_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);
/** The smallest normal double: below it (but not 0) a number has lost precision. */
const MIN_NORMAL = 2.2250738585072014e-308;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export const bodyTooLarge = () => new DomainError('PAYLOAD_TOO_LARGE', `request body is larger than ${BODY_LIMIT_BYTES / 1024 / 1024} MiB`);
const invalidBody = (message: string) => new DomainError('VALIDATION_FAILED', message);
const fieldError = (field: string, message: string) => DomainError.validation([{ field: field || 'body', message }] satisfies FieldError[]);

/**
 * Reads a JSON body of at most BODY_LIMIT_BYTES and parses it with
 * {@link parseJsonBody}. A larger body is read to its end (up to DRAIN_LIMIT_BYTES
 * more, kept nowhere) before the 413 answer, so the client sees the answer rather
 * than a reset connection; past that the connection is closed.
 */
export function readJsonBody(raw: IncomingMessage, payload: NodeJS.ReadableStream, done: (error: Error | null, body?: unknown) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (error: Error | null, body?: unknown) => {
    if (settled) return;
    settled = true;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onAbort);
    payload.removeListener('close', onAbort);
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= BODY_LIMIT_BYTES) {
      chunks.push(chunk);
    } else if (size > BODY_LIMIT_BYTES + DRAIN_LIMIT_BYTES) {
      settle(bodyTooLarge());
      raw.destroy();
    } else {
      chunks.length = 0;
    }
  };
  const onEnd = () => {
    if (size > BODY_LIMIT_BYTES) return settle(bodyTooLarge());
    try {
      settle(null, parseJsonBody(Buffer.concat(chunks)));
    } catch (error) {
      settle(error as Error);
    }
  };
  const onAbort = () => settle(invalidBody('request body was not received completely'));
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onAbort);
  payload.on('close', onAbort);
  payload.resume();
}

/**
 * After an answer given before the body was read (401, 403, 413, 415, 429, 400):
 * reads and throws away what the client still sends, up to DRAIN_LIMIT_BYTES or
 * DRAIN_TIMEOUT_MS, so the connection stays usable and the answer readable; past
 * either it is closed. Nothing of the body is kept or parsed.
 */
export function drainBounded(raw: IncomingMessage): void {
  if (raw.complete || raw.destroyed) return;
  let seen = 0;
  const close = () => raw.destroy();
  const timer = setTimeout(close, DRAIN_TIMEOUT_MS).unref();
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_LIMIT_BYTES) close();
  });
  raw.once('close', () => clearTimeout(timer));
  raw.once('end', () => clearTimeout(timer));
  raw.on('error', () => undefined);
  raw.resume();
}

/**
 * Parses a JSON request body, refusing (400 VALIDATION_FAILED, naming the field)
 * before JSON.parse builds anything from it: invalid UTF-8, nesting deeper than
 * maxDepth, more than maxValues arrays, objects and elements, duplicate keys, keys named
 * like Object.prototype's members (`__proto__`, `constructor`, …), and numbers a double does not hold (beyond
 * its range, or below its precision, such as 1e-320). Then every string, key or
 * value, is checked for NUL characters and unpaired surrogates. The body must be an
 * object: every route's body is.
 */
export function parseJsonBody(bytes: Buffer, limits: JsonLimits = JSON_LIMITS): Record<string, unknown> {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw invalidBody('request body is not valid UTF-8');
  }
  if (text.trim() === '') throw invalidBody('request body is empty but Content-Type is application/json');
  scanJson(text, limits);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidBody('request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fieldError('body', 'request body must be a JSON object');
  checkStrings(value);
  return value as Record<string, unknown>;
}

/** Where the scanner is: an object (its keys so far, the current key) or an array (the current index). */
interface Frame {
  keys: Set<string> | null;
  at: string | number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * One pass over the text, before it is parsed: depth, count, keys and numbers.
 * It only has to be right for valid JSON; anything else JSON.parse refuses after it.
 */
function scanJson(text: string, { maxDepth, maxValues }: JsonLimits): void {
  const frames: Frame[] = [];
  const path = () => frames.map((frame) => frame.at).join('.');
  let values = 0;
  let expectKey = false;
  const count = () => {
    if (++values <= maxValues) return;
    // Named by the field that holds the values, not by the element the count ran out at.
    const field = frames.flatMap((frame) => (frame.keys ? [frame.at] : [])).join('.');
    throw fieldError(field, `request body has more than ${maxValues} values`);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i + 1;
      let escaped = false;
      for (i = start; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) {
          escaped = true;
          i++;
        } else if (d === QUOTE) break;
      }
      const frame = frames[frames.length - 1];
      if (expectKey && frame?.keys) {
        expectKey = false;
        const key = decodeKey(text.slice(start, i), escaped);
        if (key === null) continue;
        frame.at = key;
        if (FORBIDDEN_KEYS.has(key)) throw fieldError(path(), 'this field name is not allowed');
        if (frame.keys.has(key)) throw fieldError(path(), 'field given more than once');
        frame.keys.add(key);
      }
      continue;
    }
    switch (c) {
      case 0x7b: // {
      case 0x5b: // [
        if (frames.length >= maxDepth) throw fieldError(path(), `request body is nested deeper than ${maxDepth} levels`);
        count();
        frames.push(c === 0x7b ? { keys: new Set(), at: '' } : { keys: null, at: 0 });
        expectKey = c === 0x7b;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        frames.pop();
        expectKey = false;
        break;
      case 0x2c: {
        // ,
        count();
        const frame = frames[frames.length - 1];
        if (frame?.keys) expectKey = true;
        else if (frame) frame.at = (frame.at as number) + 1;
        break;
      }
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          let end = i + 1;
          while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
          checkNumber(text.slice(i, end), path);
          i = end - 1;
        }
    }
  }
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

function decodeKey(raw: string, escaped: boolean): string | null {
  if (!escaped) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}

/** A number JSON.parse would turn into Infinity, into 0 from a non-zero, or into a subnormal double. */
function checkNumber(token: string, path: () => string): void {
  const value = Number(token);
  if (Number.isNaN(value)) return; // not a number: JSON.parse refuses it
  const mantissa = token.split(/[eE]/)[0];
  const lost = !Number.isFinite(value) || (value === 0 ? /[1-9]/.test(mantissa) : Math.abs(value) < MIN_NORMAL);
  if (lost) throw fieldError(path(), `the number ${token.length > 40 ? `${token.slice(0, 40)}…` : token} is out of range`);
}

/** Every key and string value: no NUL, no unpaired surrogate (see unsafeStringReason). */
function checkStrings(root: object): void {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      const reason = unsafeStringReason(value);
      if (reason) throw fieldError(path, `${path || 'body'} ${reason}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push([item, path ? `${path}.${index}` : String(index)]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const field = path ? `${path}.${key}` : key;
        const reason = unsafeStringReason(key);
        if (reason) throw fieldError(path || 'body', `a field name ${reason}`);
        stack.push([item, field]);
      }
    }
  }
}

/**
 * The query string and path parameters, before any DTO sees them: no parameter
 * given twice (no route takes a list there), none without a name or named like a
 * prototype key, and no NUL or unpaired surrogate in a name or value (find-my-way
 * and the query parser have decoded them already).
 */
export function checkUrlInput(request: FastifyRequest): void {
  const errors: FieldError[] = [];
  const check = (field: string, value: string) => {
    const reason = unsafeStringReason(value);
    if (reason) errors.push({ field, message: `${field} ${reason}` });
  };
  for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'string') check(name, value);
  }
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    const nameReason = unsafeStringReason(name);
    if (name === '' || nameReason || FORBIDDEN_KEYS.has(name)) {
      errors.push({ field: name === '' || nameReason ? 'query' : name, message: nameReason ? `a query parameter name ${nameReason}` : 'unknown query parameter' });
    } else if (Array.isArray(value)) {
      errors.push({ field: name, message: `${name} is given more than once` });
    } else if (typeof value === 'string') {
      check(name, value);
    }
  }
  if (errors.length > 0) throw DomainError.validation(errors);
}
