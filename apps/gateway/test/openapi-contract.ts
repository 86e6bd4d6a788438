import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { TestResponse } from '@hotel/testing';
import { OPENAPI_DOCUMENT_FILE } from '../src/docs/docs.controller';
import { routedUrl } from '../src/finance-console/finance-console.controller';

type Json = Record<string, any>;

/** Headers of the APIs' own contract: an answer that carries one must document it. */
const CONTRACT_HEADERS = ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];

const pointer = (...parts: string[]) => `#/${parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).map(encodeURIComponent).join('/')}`;

interface Route {
  template: string;
  pattern: RegExp;
  /** Literal segments first: `/api/accounting/balance` before `/api/accounting/{id}`, as the router picks them. */
  templated: number;
}

/**
 * Checks an answer of the gateway against the OpenAPI document it serves: the
 * operation the request hit (its path template and method), the status among that
 * operation's responses, the content type, every documented header (required ones
 * present, each value matching its schema, no contract header left undocumented)
 * and the JSON body against the response's schema (objects allow no other field and
 * require theirs; an error's `code` must be one the operation lists for that status).
 * A request that hits no operation must be answered with an error envelope.
 */
export class OpenApiContract {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(document, 'openapi');
    this.routes = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`),
        templated: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.templated - b.templated);
  }

  private static instance?: OpenApiContract;

  /** The document the gateway serves, read once. */
  static served(): OpenApiContract {
    OpenApiContract.instance ??= new OpenApiContract(JSON.parse(readFileSync(OPENAPI_DOCUMENT_FILE, 'utf8')));
    return OpenApiContract.instance;
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi${ref}` });
      this.validators.set(ref, validate);
    }
    return validate;
  }

  private resolve(value: Json): Json {
    if (typeof value?.$ref !== 'string') return value;
    const parts = (value.$ref as string).replace(/^#\//, '').split('/').map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
    return this.resolve(parts.reduce((node: any, part) => node?.[part], this.document));
  }

  /** The problems of one answer; none when it is as documented (a compressed body is read as the client would, decompressed). */
  problems(method: string, url: string, answer: Pick<TestResponse, 'status' | 'headers' | 'body' | 'text'> & { bytes?: Buffer }): string[] {
    const response = decompressed(answer);
    // Matched as the gateway's router matches it (after its URL rewrite).
    const path = routedUrl(new URL(url, 'https://gateway').pathname);
    const verb = method.toUpperCase() === 'HEAD' ? 'get' : method.toLowerCase();
    const route = this.routes.find((candidate) => candidate.pattern.test(path) && this.document.paths[candidate.template][verb]);
    if (!route) return this.undocumentedRoute(response);
    const operation = this.document.paths[route.template][verb];
    const responseObject = operation.responses[String(response.status)];
    const name = `${operation.operationId} (${verb.toUpperCase()} ${route.template})`;
    if (!responseObject) {
      return [`${name} answered ${response.status}, which the document does not list (it lists ${Object.keys(operation.responses).join(', ')}): ${response.text.slice(0, 300)}`];
    }
    // A response shared by every operation is kept once, in components.responses.
    const at = typeof responseObject.$ref === 'string' ? responseObject.$ref : pointer('paths', route.template, verb, 'responses', String(response.status));
    return [...this.headerProblems(responseObject, response), ...this.bodyProblems(at, this.resolve(responseObject), response, method)].map(
      (problem) => `${name} → ${response.status}: ${problem}`,
    );
  }

  private headerProblems(responseObject: Json, response: Pick<TestResponse, 'headers'>): string[] {
    const documented = Object.fromEntries(Object.entries((this.resolve(responseObject).headers ?? {}) as Json).map(([header, value]) => [header.toLowerCase(), this.resolve(value)]));
    const problems: string[] = [];
    for (const [header, definition] of Object.entries(documented)) {
      const value = response.headers[header];
      if (value === undefined) {
        if (definition.required) problems.push(`header ${header} is required but missing`);
        continue;
      }
      const validate = this.ajv.compile(definition.schema);
      if (!validate(value)) problems.push(`header ${header}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors, { dataVar: 'value' })}`);
    }
    for (const header of CONTRACT_HEADERS) {
      if (response.headers[header] !== undefined && !documented[header]) problems.push(`header ${header} is sent but not documented for this response`);
    }
    return problems;
  }

  private bodyProblems(at: string, responseObject: Json, response: Pick<TestResponse, 'headers' | 'body' | 'text'>, method: string): string[] {
    const content = responseObject.content as Json | undefined;
    if (!content) return response.text ? [`a body is sent but none is documented: ${response.text.slice(0, 200)}`] : [];
    const mediaType = String(response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!content[mediaType]) return [`content type ${JSON.stringify(mediaType)} is not documented (documented: ${Object.keys(content).join(', ')})`];
    if (method.toUpperCase() === 'HEAD' || mediaType !== 'application/json' || !content[mediaType].schema) return [];
    if (typeof response.body !== 'object' || response.body === null) return [`the body is not JSON: ${response.text.slice(0, 200)}`];
    const validate = this.validator(`${at}/content/${encodeURIComponent('application~1json')}/schema`);
    return validate(response.body) ? [] : describeErrors(validate.errors ?? [], response.body);
  }

  /** No operation: the answer must be an error envelope (404 for an unknown route, or what the request hooks refused first). */
  private undocumentedRoute(response: Pick<TestResponse, 'status' | 'body' | 'text'>): string[] {
    if (response.status < 400) return [`no operation of the document answers this request, but it was answered ${response.status}: ${response.text.slice(0, 200)}`];
    const validate = this.validator(pointer('components', 'schemas', 'ErrorEnvelope'));
    return validate(response.body) ? [] : describeErrors(validate.errors ?? [], response.body).map((problem) => `error answer of no operation: ${problem}`);
  }

  /** Throws with every problem of the answer, for the test that received it. */
  assert(method: string, url: string, response: Pick<TestResponse, 'status' | 'headers' | 'body' | 'text'> & { bytes?: Buffer }): void {
    const problems = this.problems(method, url, response);
    if (problems.length) {
      const shown = url.length > 200 ? `${url.slice(0, 200)}… (${url.length} characters)` : url;
      throw new Error(`the answer to ${method} ${shown} differs from the OpenAPI document (apps/gateway/src/docs/openapi.json):\n- ${problems.join('\n- ')}`);
    }
  }
}

function valueAt(body: unknown, instancePath: string): unknown {
  return instancePath
    .split('/')
    .slice(1)
    .reduce((node: any, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], body);
}

/** Ajv's errors, the deepest first, with the value that failed (an allOf/anyOf's own summary lines left out). */
function describeErrors(errors: ErrorObject[], body: unknown): string[] {
  const specific = errors.filter((error) => !['anyOf', 'oneOf', 'allOf', 'if'].includes(error.keyword));
  const lines = (specific.length ? specific : errors).map((error) => {
    const where = error.instancePath || '(body)';
    const extra = error.keyword === 'additionalProperties' ? ` "${(error.params as { additionalProperty: string }).additionalProperty}"` : '';
    const value = JSON.stringify(valueAt(body, error.instancePath)) ?? 'undefined';
    return `${where} ${error.message}${extra} (value: ${value.length > 120 ? `${value.slice(0, 120)}…` : value})`;
  });
  return [...new Set(lines)].slice(0, 8);
}

/** An answer with a `Content-Encoding` as the client reads it: its body decompressed and parsed. */
function decompressed<T extends Pick<TestResponse, 'headers' | 'body' | 'text'> & { bytes?: Buffer }>(response: T): T {
  const encoding = response.headers['content-encoding'];
  if (!encoding || !response.bytes) return response;
  const text = (encoding === 'br' ? brotliDecompressSync(response.bytes) : gunzipSync(response.bytes)).toString('utf8');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the text, as the test client keeps it
  }
  return { ...response, text, body };
}
