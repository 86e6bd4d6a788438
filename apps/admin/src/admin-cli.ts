import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { validateSync } from 'class-validator';
import {
  CREDENTIAL_KINDS,
  ClientCredentials,
  CredentialKind,
  MAX_FX_MARGIN_PERCENT,
  PROMO_CODE_PATTERN,
  SELF_CREDIT_POLICIES,
  SUBJECTS,
  SelfCreditPolicy,
  SetFxMarginRequest,
  RunVendorReconciliationRequest,
  RunContentImportRequest,
  MAX_VENDOR_RECONCILIATION_DAYS,
  isIsoCurrency,
  parseDay,
  isDecimalAmountString,
  MAX_MONEY_AMOUNT,
  fxRatesAgeDays,
} from '@hotel/contracts';

import { BusCredentials, DomainError, ServiceClient } from '@hotel/platform';
import { initSecrets } from './init-secrets';
import { traceRequest } from './trace-logs';

export const USAGE = `usage: npm run --silent admin -- <command> [options]

commands:
  create-client --name NAME [--credit-limit AMOUNT] [--currency USD]
      creates a client; prints {"client_id","api_key","sandbox_api_key","backend_token"}. --currency:
      its account currency, an ISO 4217 code (default USD); other than EUR, the exchange rates in force
      must have a rate for it (fx-rates shows them; import-fx-rates brings others)
  rotate-key --client-id N [--kind live|sandbox|backend|keys|user-tokens|all] [--keep-user-tokens]
      revokes the client's current key(s) of that kind and prints new ones (default: keys, the three
      keys; all: the keys and every token of the client's users, which cannot be reissued); prints
      {"client_id","api_key",…,"revoked_user_tokens"}. A rotated backend token (backend, keys) takes the
      user tokens it issued with it (and those issued before tokens recorded their issuer), unless
      --keep-user-tokens
  revoke-key --client-id N [--kind live|sandbox|backend|keys|user-tokens|all] [--keep-user-tokens]
      revokes the client's credentials of that kind (default: all, the three keys and every user token);
      a revoked backend token takes its user tokens with it as rotate-key does, unless
      --keep-user-tokens; prints {"client_id","revoked","revoked_user_tokens"}
  set-rate-limit --client-id N (--rps R [--burst B] | --default)
      sets the client's requests per second per credential (burst default 2 x rps), or restores the default
  create-promo --code CODE (--percent P | --amount A) [--currency USD] [--min-amount M] [--max-uses N] [--expires YYYY-MM-DD]
      creates a promo code; prints it
  delete-client --client-id N
      deletes the client: every key, backend token and user token of it stops working at once and no
      new ones can be issued (its bookings and ledger stay); prints {"client_id","deleted_at","revoked",
      "revoked_user_tokens"}
  list-clients
      prints {"clients": [...]}
  create-finance-token --name NAME
      creates a finance operator credential (every client's ledger, statements and reconciliation, with
      ?clientId=N); prints {"finance_token_id","name","finance_token"}
  revoke-finance-token --token-id N
      revokes it at once; prints {"finance_token_id","revoked_at"}
  set-credit-policy --client-id N --self-credits immediate|pending
      pending (new clients' default): a credit the client's backend token posts is a credit request until
      the finance credential confirms it; immediate: a ledger entry at once (for trusted clients); prints
      {"client_id","self_credits"}
  import-fx-rates --file FILE
      imports euro exchange rates from a file in the format of the ECB's daily file (eurofxref-daily.xml,
      one reference date); the same date again changes nothing; prints {"date","currencies","imported",
      "in_force","source"} (in_force: the reference date of the rates in force afterwards)
  fx-rates
      prints the exchange rates in force: {"date","source","imported_at","age_days","rates"} (units per euro)
  set-fx-margin --client-id N --percent P
      the margin added to the client's currency conversions from now on, in percent (0 to 20, two
      decimals at most; 0: none); prints {"client_id","currency","fx_margin_percent"}
  reconcile-vendors [--vendor CODE] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
      compares the platform's bookings with each remote vendor's own list over the period now (UTC
      days, both included, at most 31, none after today; default: yesterday; one of the two alone: that
      day), keeps the result and prints {"reports": [...], "failures": [...]}: per vendor the counts and
      the differences (missing_at_vendor, unknown_to_platform, status_mismatch). --vendor: one remote
      vendor (default: every one). Exits 1 when a vendor could not be asked (listed in failures)
  import-content [--vendor CODE] [--full]
      imports the hotel content of each vendor whose content the platform imports (hotelbeds when its
      key is set) now, page by page: by default the hotels the vendor changed since the last import,
      with --full every one; prints {"reports": [...]}: per vendor the hotels read, known, matched (by
      GIATA code, by name within 150 m), new and skipped. Exits 1 when an import failed
  init-secrets --dir DIR [--nats-listen HOST:PORT] [--jetstream-dir DIR]
      creates, where missing, every secret the platform needs as owner-only files under DIR: an NKEY
      seed per app (nats/<app>.nk) and the signing secrets (voucher-secret, rate-id-secret); writes the
      NATS broker's configuration (nats/nats.conf, listening on --nats-listen, default 127.0.0.1:4222)
      and its authorization block alone (nats/auth.conf, for the NATS Helm chart: deploy/README.md);
      prints {"dir","created"} (never a secret). Needs no running system.
  trace REQUEST_ID [--logs DIR]
      prints every log line any app wrote about one request (its X-Request-Id), in time order:
      {"request_id","lines": [...]}, each line with the log file it came from. Reads the JSON logs
      npm start writes (--logs, default DATA_DIR/logs, DATA_DIR default .data). Exits 1 when no line
      has that id. Needs no running system

Every command prints exactly one JSON object on stdout. Secrets are shown once.
\`<command> --help\` prints that command's lines.
The broker and the admin's NATS identity: NATS_URL and NATS_NKEY_SEED (or NATS_NKEY_SEED_FILE)
if set; else what npm start wrote under DATA_DIR (default .data): nats.url and secrets/nats/admin.nk.`;

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

class UsageError extends Error {}

/** A command's output when part of it failed: printed as any output, with exit code 1. */
class Incomplete {
  constructor(readonly output: object) {}
}

function parse(argv: string[]) {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'credit-limit': { type: 'string' },
      currency: { type: 'string' },
      'client-id': { type: 'string' },
      kind: { type: 'string' },
      'keep-user-tokens': { type: 'boolean' },
      rps: { type: 'string' },
      code: { type: 'string' },
      percent: { type: 'string' },
      amount: { type: 'string' },
      'min-amount': { type: 'string' },
      'max-uses': { type: 'string' },
      expires: { type: 'string' },
      burst: { type: 'string' },
      default: { type: 'boolean' },
      dir: { type: 'string' },
      'nats-listen': { type: 'string' },
      'jetstream-dir': { type: 'string' },
      'token-id': { type: 'string' },
      'self-credits': { type: 'string' },
      file: { type: 'string' },
      vendor: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean' },
      full: { type: 'boolean' },
      logs: { type: 'string' },
    },
    strict: true,
    // Only trace takes one (the request id).
    allowPositionals: command === 'trace',
  });
  return { command, values, positionals };
}

function idOption(value: string | undefined, flag: string): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`${flag} must be a positive integer`);
  return Number(value);
}

function clientId(value: string | undefined): number {
  return idOption(value, '--client-id');
}

function positiveInt(value: string | undefined, flag: string): number {
  if (!value || !/^[1-9]\d{0,6}$/.test(value)) throw new UsageError(`${flag} must be a whole number from 1 to 1000000`);
  return Number(value);
}

/** What --kind names: key kinds, and whether the client's user tokens go too. */
function kindSelection(value: string): { kinds: CredentialKind[]; userTokens: boolean } {
  if (value === 'all') return { kinds: [...CREDENTIAL_KINDS], userTokens: true };
  if (value === 'keys') return { kinds: [...CREDENTIAL_KINDS], userTokens: false };
  if (value === 'user-tokens') return { kinds: [], userTokens: true };
  if (!(CREDENTIAL_KINDS as readonly string[]).includes(value)) throw new UsageError('--kind must be live, sandbox, backend, keys, user-tokens or all');
  return { kinds: [value as CredentialKind], userTokens: false };
}

/** --kind (or its default) and --keep-user-tokens, which keeps what a revoked backend token issued and so needs one. */
function credentialSelection(kind: string, keepUserTokens = false): { kinds: CredentialKind[]; userTokens: boolean; keepUserTokens: boolean } {
  const selection = kindSelection(kind);
  if (keepUserTokens && selection.userTokens) throw new UsageError(`--keep-user-tokens contradicts --kind ${kind}, which revokes every user token`);
  if (keepUserTokens && !selection.kinds.includes('backend')) throw new UsageError(`--keep-user-tokens is for the backend token (--kind backend or keys); --kind ${kind} revokes no user token`);
  return { ...selection, keepUserTokens };
}

function snakeCredentials(credentials: ClientCredentials) {
  return {
    client_id: credentials.clientId,
    ...(credentials.apiKey && { api_key: credentials.apiKey }),
    ...(credentials.sandboxApiKey && { sandbox_api_key: credentials.sandboxApiKey }),
    ...(credentials.backendToken && { backend_token: credentials.backendToken }),
  };
}

type ParsedOptions = ReturnType<typeof parse>['values'];

/** A command's own lines of USAGE (the whole of it for an unknown command). */
export function commandUsage(command: string | undefined): string {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line === `  ${command}` || line.startsWith(`  ${command} `));
  if (!command || start === -1) return USAGE;
  const end = lines.findIndex((line, index) => index > start && !line.startsWith('      '));
  return ['usage: npm run --silent admin -- ' + lines[start].trim(), ...lines.slice(start + 1, end)].join('\n');
}

/** The ECB's daily file is about 2 kB; a file far larger is not one (and would not fit a NATS message of 1 MB). */
const MAX_FX_FILE_BYTES = 512 * 1024;

function readFxFile(file: string | undefined): { xml: string; source: string } {
  if (!file) throw new UsageError('import-fx-rates needs --file');
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new UsageError(`cannot read --file ${file} (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  if (bytes.length > MAX_FX_FILE_BYTES) throw new UsageError(`--file ${file} is ${bytes.length} bytes: the ECB's daily file is about 2 kB (at most ${MAX_FX_FILE_BYTES} are taken)`);
  // Kept with the rates as their source: `file:<name>`, on one line, within the contract's 200 characters.
  const name = basename(file).replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, '_').slice(0, 190);
  return { xml: bytes.toString('utf8'), source: `file:${name}` };
}

/** reconcile-vendors' period and vendor, checked here against the contract (the rates service names the vendors configured). */
function vendorReconciliationRequest(values: ParsedOptions): RunVendorReconciliationRequest {
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  for (const flag of ['from', 'to'] as const) {
    const value = values[flag];
    if (value !== undefined && !(parseDay(value) && value <= today)) throw new UsageError(`--${flag} must be a date YYYY-MM-DD, not after today (${today})`);
  }
  // One of them alone is that one day.
  const from = values.from ?? values.to ?? yesterday;
  const request = Object.assign(new RunVendorReconciliationRequest(), { from, to: values.to ?? from, ...(values.vendor !== undefined && { vendor: values.vendor }) });
  if (request.to < request.from) throw new UsageError(`--to (${request.to}) is before --from (${request.from})`);
  const [problem] = validateSync(request);
  if (problem?.property === 'to') throw new UsageError(`the period is at most ${MAX_VENDOR_RECONCILIATION_DAYS} days (both ends counted): ${request.from} to ${request.to} is longer`);
  if (problem) throw new UsageError('--vendor must be a vendor code such as hotelbeds or atlas');
  return request;
}

/** A reply as the command prints it: every key in snake_case, as every admin output (values stay as they are). */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), snakeKeys(inner)]));
}

/** Refuses an account currency the rates in force cannot convert to (EUR needs none: the rates are per euro). */
/** The vendors configured are the services' to say: a vendor they refuse is a usage error all the same. */
async function asVendorUsage<T>(reply: Promise<T>): Promise<T> {
  try {
    return await reply;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'VALIDATION_FAILED') throw new UsageError(error.errors?.length ? error.errors.map((problem) => problem.message).join('; ') : error.message);
    throw error;
  }
}

async function requireRateInForce(services: ServiceClient, currency: string) {
  if (currency === 'EUR') return;
  const inForce = (await services.send(SUBJECTS.RATES_FX_RATES_GET, {})).sets[0];
  if (inForce?.rates[currency] === undefined) {
    throw new UsageError(
      `no exchange rate for ${currency} is in force (${inForce ? `the rates of ${inForce.date} have none` : 'no rates at all'}): ` +
        `import rates that include ${currency} with import-fx-rates --file FILE first, or choose a currency they have (fx-rates lists them)`,
    );
  }
}

async function execute(services: ServiceClient, command: string | undefined, values: ParsedOptions) {
  switch (command) {
    case 'create-client': {
      if (!values.name?.trim()) throw new UsageError('create-client needs --name');
      const creditLimit = values['credit-limit'];
      if (creditLimit !== undefined && !isDecimalAmountString(creditLimit)) {
        throw new UsageError(`--credit-limit must be a non-negative amount up to ${MAX_MONEY_AMOUNT.toLocaleString('en-US')}, such as 10000 or 2500.50`);
      }
      if (values.currency !== undefined) {
        if (!isIsoCurrency(values.currency)) throw new UsageError(`--currency must be an ISO 4217 code the platform takes, such as USD, EUR or JPY (not ${values.currency})`);
        await requireRateInForce(services, values.currency);
      }
      const created = await services.send(SUBJECTS.USERS_CLIENT_CREATE, {
        name: values.name,
        creditLimit: creditLimit ?? '0',
        currency: values.currency ?? 'USD',
      });
      return snakeCredentials(created);
    }
    case 'rotate-key': {
      const rotated = await services.send(SUBJECTS.USERS_CLIENT_ROTATE_KEYS, {
        clientId: clientId(values['client-id']),
        ...credentialSelection(values.kind ?? 'keys', values['keep-user-tokens']),
      });
      return { ...snakeCredentials(rotated), revoked_user_tokens: rotated.revokedUserTokens };
    }
    case 'revoke-key': {
      const result = await services.send(SUBJECTS.USERS_CLIENT_REVOKE_KEYS, {
        clientId: clientId(values['client-id']),
        ...credentialSelection(values.kind ?? 'all', values['keep-user-tokens']),
      });
      return { client_id: result.clientId, revoked: result.revoked, revoked_user_tokens: result.revokedUserTokens };
    }
    case 'set-rate-limit': {
      const id = clientId(values['client-id']);
      if (values.default) {
        if (values.rps !== undefined || values.burst !== undefined) throw new UsageError('--default takes no --rps or --burst');
        const reply = await services.send(SUBJECTS.USERS_CLIENT_SET_RATE_LIMIT, { clientId: id, rps: null, burst: null });
        return { client_id: reply.clientId, rate_limit: reply.rateLimit };
      }
      const rps = positiveInt(values.rps, '--rps');
      const burst = values.burst === undefined ? rps * 2 : positiveInt(values.burst, '--burst');
      const reply = await services.send(SUBJECTS.USERS_CLIENT_SET_RATE_LIMIT, { clientId: id, rps, burst });
      return { client_id: reply.clientId, rate_limit: reply.rateLimit };
    }
    case 'create-promo': {
      const code = values.code?.trim().toUpperCase();
      if (!code || !PROMO_CODE_PATTERN.test(code)) throw new UsageError('create-promo needs --code of 3 to 32 letters, digits, _ or -');
      if ((values.percent === undefined) === (values.amount === undefined)) throw new UsageError('give exactly one of --percent and --amount');
      const value = (values.percent ?? values.amount)!;
      if (!isDecimalAmountString(value) || Number(value) <= 0) throw new UsageError(`--${values.percent ? 'percent' : 'amount'} must be a positive number with at most the decimals of its currency`);
      if (values.percent !== undefined && Number(value) > 100) throw new UsageError('--percent is at most 100');
      if (values['min-amount'] !== undefined && !isDecimalAmountString(values['min-amount'])) throw new UsageError('--min-amount must be an amount such as 100 or 99.50');
      if (values.currency !== undefined && !isIsoCurrency(values.currency)) throw new UsageError(`--currency must be an ISO 4217 code the platform takes, such as USD, EUR or JPY (not ${values.currency})`);
      if (values.expires !== undefined && !parseDay(values.expires)) throw new UsageError('--expires must be a date YYYY-MM-DD');
      const promo = await services.send(SUBJECTS.PROMO_CODE_CREATE, {
        code,
        kind: values.percent !== undefined ? 'percent' : 'amount',
        value,
        currency: values.currency ?? 'USD',
        ...(values['min-amount'] !== undefined && { minAmount: values['min-amount'] }),
        ...(values['max-uses'] !== undefined && { maxUses: positiveInt(values['max-uses'], '--max-uses') }),
        ...(values.expires !== undefined && { expires: values.expires }),
      });
      return {
        code: promo.code,
        kind: promo.kind,
        value: promo.value,
        currency: promo.currency,
        min_amount: promo.minAmount,
        max_uses: promo.maxUses,
        uses: promo.uses,
        expires: promo.expires,
      };
    }
    case 'delete-client': {
      const result = await services.send(SUBJECTS.USERS_CLIENT_DELETE, { clientId: clientId(values['client-id']) });
      return { client_id: result.clientId, deleted_at: result.deletedAt, revoked: result.revoked, revoked_user_tokens: result.revokedUserTokens };
    }
    case 'list-clients': {
      const { clients } = await services.send(SUBJECTS.USERS_CLIENT_LIST, {});
      return {
        clients: clients.map((client) => ({
          client_id: client.clientId,
          name: client.name,
          credit_limit: client.creditLimit,
          currency: client.currency,
          created_at: client.createdAt,
          active_credentials: client.activeCredentials,
          deleted_at: client.deletedAt,
        })),
      };
    }
    case 'create-finance-token': {
      if (!values.name?.trim()) throw new UsageError('create-finance-token needs --name');
      const created = await services.send(SUBJECTS.USERS_FINANCE_TOKEN_CREATE, { name: values.name });
      return { finance_token_id: created.tokenId, name: created.name, finance_token: created.token };
    }
    case 'revoke-finance-token': {
      const revoked = await services.send(SUBJECTS.USERS_FINANCE_TOKEN_REVOKE, { tokenId: idOption(values['token-id'], '--token-id') });
      return { finance_token_id: revoked.tokenId, revoked_at: revoked.revokedAt };
    }
    case 'set-credit-policy': {
      const selfCredits = values['self-credits'];
      if (!(SELF_CREDIT_POLICIES as readonly (string | undefined)[]).includes(selfCredits)) throw new UsageError('--self-credits must be immediate or pending');
      const policy = await services.send(SUBJECTS.ACCOUNTING_CREDIT_POLICY_SET, { clientId: clientId(values['client-id']), selfCredits: selfCredits as SelfCreditPolicy });
      return { client_id: policy.clientId, self_credits: policy.selfCredits };
    }
    case 'import-fx-rates': {
      const reply = await services.send(SUBJECTS.RATES_FX_RATES_IMPORT, readFxFile(values.file));
      return { date: reply.set.date, currencies: Object.keys(reply.set.rates).length, imported: reply.imported, in_force: reply.inForce.date, source: reply.set.source };
    }
    case 'fx-rates': {
      const inForce = (await services.send(SUBJECTS.RATES_FX_RATES_GET, {})).sets[0];
      if (!inForce) throw new DomainError('NOT_FOUND', 'no exchange rates in force: import a file with import-fx-rates --file FILE');
      return { date: inForce.date, source: inForce.source, imported_at: inForce.importedAt, age_days: fxRatesAgeDays(inForce.date), rates: inForce.rates };
    }
    case 'set-fx-margin': {
      const request = Object.assign(new SetFxMarginRequest(), { clientId: clientId(values['client-id']), percent: values.percent });
      if (values.percent === undefined) throw new UsageError('set-fx-margin needs --percent');
      if (validateSync(request).length > 0) throw new UsageError(`--percent must be a percentage from 0 to ${MAX_FX_MARGIN_PERCENT} with at most two decimals, such as 0, 1.5 or 2.25`);
      const pricing = await services.send(SUBJECTS.USERS_CLIENT_SET_FX_MARGIN, { clientId: request.clientId, percent: request.percent });
      return { client_id: pricing.clientId, currency: pricing.currency, fx_margin_percent: pricing.fxMarginPercent };
    }
    case 'reconcile-vendors': {
      // A month of a slow vendor's list takes a while: the run has minutes, not the commands' 10 seconds.
      const reply = await asVendorUsage(services.send(SUBJECTS.RATES_VENDOR_RECONCILIATION_RUN, vendorReconciliationRequest(values), { timeoutMs: 300_000 }));
      const output = snakeKeys(reply) as object;
      return reply.failures.length > 0 ? new Incomplete(output) : output;
    }
    case 'import-content': {
      const request = Object.assign(new RunContentImportRequest(), { ...(values.vendor !== undefined && { vendor: values.vendor }), ...(values.full && { full: true }) });
      const problems = validateSync(request);
      if (problems.length > 0) throw new UsageError('--vendor must be a vendor code such as hotelbeds');
      // A vendor's whole portfolio is hundreds of pages: the import has as long as it needs, not the commands' 10 seconds.
      const reply = await asVendorUsage(services.send(SUBJECTS.SEARCH_CONTENT_IMPORT_RUN, request, { timeoutMs: 3_600_000 }));
      const output = snakeKeys(reply) as object;
      return reply.reports.some((report) => report.status !== 'completed') ? new Incomplete(output) : output;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

/** Runs one admin command; returns the process exit code (0 ok, 1 failed, 2 usage). */
export async function runAdmin(argv: string[], bus: BusCredentials, io: AdminIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.command === 'help' || parsed.command === '--help') {
    io.out(USAGE);
    return 0;
  }
  if (parsed.values.help) {
    io.out(commandUsage(parsed.command));
    return 0;
  }
  if (parsed.command === 'trace') {
    const requestId = parsed.positionals[0];
    if (!requestId) {
      io.err(`trace needs a request id\n\n${commandUsage('trace')}`);
      return 2;
    }
    const logDir = parsed.values.logs ?? join(resolve(process.env.DATA_DIR || '.data'), 'logs');
    try {
      const lines = traceRequest(logDir, requestId);
      io.out(JSON.stringify({ request_id: requestId, lines }));
      return lines.length > 0 ? 0 : 1;
    } catch (error) {
      io.err(`cannot read the logs in ${logDir} (${(error as NodeJS.ErrnoException).code ?? error}); --logs names the directory`);
      return 1;
    }
  }
  if (parsed.command === 'init-secrets') {
    const { dir, 'nats-listen': natsListen = '127.0.0.1:4222', 'jetstream-dir': jetstreamDir } = parsed.values;
    if (!dir) {
      io.err(`init-secrets needs --dir\n\n${USAGE}`);
      return 2;
    }
    try {
      io.out(JSON.stringify({ dir, created: initSecrets(dir, { natsListen, jetstreamDir }) }));
      return 0;
    } catch (error) {
      io.err(error instanceof Error ? error.message : String(error));
      return 1;
    }
  }
  const services = new ServiceClient(bus, 10_000, false);
  try {
    await services.connect();
  } catch (error) {
    io.err(`cannot reach NATS at ${bus.url} (${error instanceof Error ? error.message : error}); is the system running? Start it with npm start.`);
    return 1;
  }
  try {
    const result = await execute(services, parsed.command, parsed.values);
    io.out(JSON.stringify(result instanceof Incomplete ? result.output : result));
    return result instanceof Incomplete ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof DomainError) {
      const hint = error.code === 'SERVICE_UNAVAILABLE' ? ' (is the system running? start it with npm start)' : '';
      io.err(JSON.stringify({ error: { code: error.code, message: error.message + hint } }));
      return 1;
    }
    io.err(String(error));
    return 1;
  } finally {
    await services.close();
  }
}
