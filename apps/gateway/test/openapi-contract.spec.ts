import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenApiContract } from './openapi-contract';

const examples = JSON.parse(readFileSync(join(__dirname, '../openapi/examples.json'), 'utf8'));
const HEADERS = { 'x-request-id': 'req-1', 'ratelimit-limit': '500', 'ratelimit-remaining': '499', 'ratelimit-reset': '1', 'content-type': 'application/json; charset=utf-8' };
const answer = (status: number, body: unknown, headers: Record<string, string> = HEADERS) => ({ status, headers, body, text: JSON.stringify(body) });
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));
const BOOK = '/book/298850701/e6798519-bb40-475c-8488-37e1336b003f/39b523bc-6d36-825b-950e-00f783ae4410/account';

/** The checker the system tests run on every answer: what it lets through and what it refuses. */
describe('the OpenAPI contract check', () => {
  const contract = OpenApiContract.served();

  it('accepts an answer as documented', () => {
    expect(contract.problems('POST', BOOK, answer(201, examples.bookRate.response))).toEqual([]);
    expect(contract.problems('GET', '/api/accounting/balance', answer(200, examples.getBalance.response))).toEqual([]);
  });

  it('refuses a field the document lacks, a missing field, a wrong enum value and a wrong type', () => {
    const body = clone(examples.bookRate.response);
    body.data.surprise = true;
    delete body.data.hotel.name;
    body.data.status = 'lost';
    body.data.nights = '2';
    const problems = contract.problems('POST', BOOK, answer(201, body)).join('\n');
    expect(problems).toMatch(/must NOT have additional properties "surprise"/);
    expect(problems).toMatch(/\/data\/hotel must have required property 'name'/);
    expect(problems).toMatch(/\/data\/status must be equal to one of the allowed values/);
    expect(problems).toMatch(/\/data\/nights must be integer/);
  });

  it('refuses an undocumented status, an error code not listed for the operation, and a missing or undocumented header', () => {
    expect(contract.problems('GET', '/book/precancel/1', answer(418, {}))[0]).toMatch(/answered 418, which the document does not list/);
    const expired = { data: null, success: false, message: 'session expired', code: 'SESSION_EXPIRED' };
    expect(contract.problems('GET', '/book/precancel/1', answer(404, expired))[0]).toMatch(/\/code must be equal to one of the allowed values/);
    const { 'x-request-id': _id, ...withoutId } = HEADERS;
    expect(contract.problems('GET', '/api/accounting/balance', answer(200, examples.getBalance.response, withoutId))[0]).toMatch(/header x-request-id is required/);
    expect(contract.problems('GET', '/health', answer(200, examples.getLiveness.response, HEADERS)).join('\n')).toMatch(/header ratelimit-limit is sent but not documented/);
    expect(contract.problems('GET', '/api/accounting/balance', answer(200, examples.getBalance.response, { ...HEADERS, 'ratelimit-limit': 'many' }))[0]).toMatch(
      /header ratelimit-limit: "many" value must match pattern/,
    );
  });

  it('knows the answer every route shares (417 for an unknown Expect), kept once in components.responses', () => {
    const refused = { data: null, success: false, message: 'the only Expect this server meets is 100-continue', code: 'VALIDATION_FAILED' };
    expect(contract.problems('GET', '/me', answer(417, refused, { 'x-request-id': 'req-1', 'content-type': 'application/json; charset=utf-8' }))).toEqual([]);
    expect(contract.problems('GET', '/me', answer(417, { ...refused, code: 'NOT_FOUND' }, { 'content-type': 'application/json' })).join('\n')).toMatch(
      /x-request-id is required[\s\S]*\/code must be equal to one of the allowed values/,
    );
  });

  it('matches a literal path before a template, and wants an error envelope where no operation answers', () => {
    expect(contract.problems('GET', '/api/accounting/balance', answer(200, examples.getAccountingEntry.response)).join('\n')).toMatch(/getBalance/);
    expect(contract.problems('GET', '/nowhere', answer(200, {}))[0]).toMatch(/no operation of the document answers this request/);
    expect(contract.problems('GET', '/nowhere', answer(404, { data: null, success: false, message: 'no such route', code: 'NOT_FOUND' }))).toEqual([]);
  });
});
