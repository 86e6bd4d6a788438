import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { Actor, AccountingEntryView, ExportPage, ExportPageRequest, SUBJECTS } from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';

/** How often a later page of an export is asked for before the answer is cut off. */
const PAGE_ATTEMPTS = 4;

export type ExportSelection = Pick<ExportPageRequest, 'kind' | 'format' | 'from' | 'to'>;

/**
 * An export's pages from the accounting service, one request each (a keyset over the
 * entry ids): the next is asked for only when the answer has taken the previous one,
 * so an export of any size holds one page (under 1 MB) in the gateway.
 */
export class ExportPages {
  /**
   * The later pages are asked for while the response streams, after the handler has
   * returned: in the context the export was opened in (its route and trace), so that
   * those calls are checked and traced as the first one is.
   */
  private readonly nextPage: (page: ExportPage) => Promise<ExportPage>;

  private constructor(
    private readonly services: ServiceClient,
    private readonly request: Omit<ExportPageRequest, 'after' | 'upTo' | 'balance'>,
    readonly first: ExportPage,
  ) {
    this.nextPage = AsyncLocalStorage.bind((page: ExportPage) => this.askNextPage(page));
  }

  /** Asks for the first page now, so a refusal (403, 404, 400) is an ordinary error answer, before anything is sent. */
  static async open(services: ServiceClient, actor: Actor, selection: ExportSelection, options: { upTo?: number; balance?: string } = {}): Promise<ExportPages> {
    const request = { actor, ...selection };
    const first = await services.send(SUBJECTS.ACCOUNTING_EXPORT_PAGE, { ...request, after: 0, balance: options.balance ?? '0.00', ...(options.upTo !== undefined && { upTo: options.upTo }) });
    return new ExportPages(services, request, first);
  }

  /** Every page, the first included. */
  async *pages(): AsyncGenerator<ExportPage> {
    let page = this.first;
    yield page;
    while (page.next !== null) {
      page = await this.nextPage(page);
      yield page;
    }
  }

  /**
   * The page after `page`. Once the answer has begun its status cannot change, and a cut
   * connection is all an error could still say: a page the service could not give in time
   * (a busy moment) is asked for again, a few times, before that. Safe to repeat: a page
   * is a read of the snapshot the first page fixed.
   */
  private async askNextPage(page: ExportPage): Promise<ExportPage> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.services.send(SUBJECTS.ACCOUNTING_EXPORT_PAGE, { ...this.request, after: page.next!, upTo: page.upTo, balance: page.balance });
      } catch (error) {
        if (attempt >= PAGE_ATTEMPTS || !(error instanceof DomainError) || error.code !== 'SERVICE_UNAVAILABLE') throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
  }

  /** The entries of JSON pages, one by one. */
  async *entries(): AsyncGenerator<AccountingEntryView> {
    for await (const page of this.pages()) if (page.text) yield* JSON.parse(`[${page.text}]`) as AccountingEntryView[];
  }

  /** The pages' text between a head and a tail; JSON pages joined by commas. */
  async *text(head: string, tail: string): AsyncGenerator<Buffer> {
    yield Buffer.from(head);
    let written = false;
    for await (const page of this.pages()) {
      if (!page.text) continue;
      yield Buffer.from(written && this.request.format === 'json' ? `,${page.text}` : page.text);
      written = true;
    }
    yield Buffer.from(tail);
  }
}

/** A byte stream that pulls the next chunk only when the answer has room (Fastify pipes it with backpressure). */
export function byteStream(chunks: AsyncIterable<Buffer>): Readable {
  return Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 });
}
