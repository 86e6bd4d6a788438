import { Readable } from 'node:stream';
import { Controller } from '@nestjs/common';
import { ExportPage, SUBJECTS } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { Route, undeclaredSendCheck } from '../http/route';
import { ExportPages } from './ledger-export';

const actor = { clientId: 1, userId: null, sandbox: false, role: 'client' } as never;
const page = (next: number | null, text: string): ExportPage => ({ text, rows: 1, next, upTo: 3, balance: '0.00' });

/**
 * A stand-in accounting service whose later pages go through the route check the gateway's
 * bus client makes (the first page is answered unchecked): what the streamed pages see.
 */
function accounting(check: (subject: string) => void): ServiceClient {
  return {
    send: async (_subject: string, request: { after: number }) => {
      if (request.after === 0) return page(1, '"a"');
      check(SUBJECTS.ACCOUNTING_EXPORT_PAGE);
      return request.after === 1 ? page(2, '"b"') : page(null, '"c"');
    },
  } as unknown as ServiceClient;
}

@Controller()
class ProbeController {
  constructor(private readonly services: ServiceClient) {}

  // A route that does not declare ACCOUNTING_EXPORT_PAGE: its later pages must be refused.
  @Route('GET /api/accounting/balance')
  async export(): Promise<Readable> {
    const pages = await ExportPages.open(this.services, actor, { kind: 'ledger', format: 'json' });
    return Readable.from(pages.text('[', ']'));
  }
}

async function read(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += (chunk as Buffer).toString();
  return text;
}

describe('ExportPages', () => {
  it('asks for the later pages in the context the export was opened in: the route that streams them still checks them', async () => {
    const stream = await new ProbeController(accounting(undeclaredSendCheck('refuse', () => undefined))).export();
    // The handler has returned; the pages are asked for as the answer is read.
    await expect(read(stream)).rejects.toThrow(`GET /api/accounting/balance sent ${SUBJECTS.ACCOUNTING_EXPORT_PAGE}, which its route definition does not declare`);
  });

  it('streams every page, joined, when the calls are allowed', async () => {
    const stream = await new ProbeController(accounting(() => undefined)).export();
    expect(await read(stream)).toBe('["a","b","c"]');
  });
});
