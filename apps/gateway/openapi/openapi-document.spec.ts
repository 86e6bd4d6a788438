import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { EXAMPLES_FILE, OPENAPI_DOCUMENT, OperationExample, buildOpenApiDocument, documentedRoutes } from './openapi-document';

describe('the OpenAPI document', () => {
  const examples: Record<string, OperationExample> = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8'));
  let document: ReturnType<typeof buildOpenApiDocument>;

  beforeAll(() => {
    document = buildOpenApiDocument(examples);
  });

  it('is the one committed (regenerate it with `npm run openapi`)', () => {
    const committed = readFileSync(OPENAPI_DOCUMENT, 'utf8');
    // One assertion on the whole text: a difference names the first line that differs.
    expect(committed === `${JSON.stringify(document, null, 2)}\n` ? 'up to date' : 'differs from the sources: run `npm run openapi`').toBe('up to date');
  });

  it('documents exactly the gateway\'s routes, each operation once', () => {
    const documented = documentedRoutes();
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations).toHaveLength(documented.length);
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has an example for each operation, and every example is valid', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi');
    const problems: string[] = [];
    /** Validates against the schema at a JSON pointer into the document. */
    const check = (what: string, parts: (string | number)[], value: unknown) => {
      const at = parts.map((part) => encodeURIComponent(String(part).replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
      const validate = ajv.compile({ $ref: `openapi#/${at}` });
      if (!validate(value)) problems.push(`${what}: ${ajv.errorsText(validate.errors)}`);
    };
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods) as [string, any][]) {
        const id = operation.operationId;
        const example = examples[id] ?? {};
        const pathParameters = operation.parameters.filter((parameter: any) => parameter.in === 'path');
        const json = Object.values(operation.responses).flatMap((response: any) => Object.entries(response.content ?? {}));
        const hasJsonExample = json.some(([type, media]: [string, any]) => type === 'application/json' && media.example !== undefined);
        if (!hasJsonExample && !pathParameters.length && !operation.requestBody && !['getLiveness', 'getApiReference', 'getOpenApiDocument', 'getFinanceConsole'].includes(id)) {
          problems.push(`${id}: no example`);
        }
        if (operation.requestBody && example.request === undefined) problems.push(`${id}: no request example`);
        operation.parameters.forEach((parameter: any, index: number) => {
          if (parameter.in === 'path' && parameter.example === undefined) problems.push(`${id}: no example of ${parameter.name}`);
          if (parameter.example !== undefined) check(`${id} ${parameter.name}`, ['paths', path, method, 'parameters', index, 'schema'], parameter.example);
        });
        if (operation.requestBody) check(`${id} request`, ['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'], example.request);
        for (const [status, response] of Object.entries(operation.responses) as [string, any][]) {
          if (response.content?.['application/json']?.example !== undefined) {
            check(`${id} ${status}`, ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema'], response.content['application/json'].example);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
