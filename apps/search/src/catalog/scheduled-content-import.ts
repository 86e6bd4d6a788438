import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy, Logger } from '@nestjs/common';
import { BACKGROUND_JOBS, BackgroundJobs, DrainLoop, SERVICE_ENV } from '@hotel/platform';
import { SearchEnv } from '../search.env';
import { ContentImportService } from './content-import.service';

/** How often a replica looks whether a vendor's content is due: an import comes at most this long after it is. */
const TICK_MS = 10 * 60_000;

/**
 * The content import at start and every CONTENT_REFRESH_H hours: each replica looks at start
 * and every 10 minutes; the one that takes a vendor's lease imports, the others find it
 * held or done. A failed import is tried again at the next look.
 */
@Injectable()
export class ScheduledContentImport implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ContentImport');
  private readonly loop?: DrainLoop;

  constructor(
    private readonly imports: ContentImportService,
    @Inject(SERVICE_ENV) private readonly env: SearchEnv,
    @Inject(BACKGROUND_JOBS) background: BackgroundJobs,
  ) {
    if (imports.contentVendors().length > 0) this.loop = new DrainLoop(background, 'content-import', TICK_MS, () => this.tick());
  }

  onApplicationBootstrap(): void {
    if (!this.loop) return;
    const vendors = this.imports.contentVendors().map((supplier) => supplier.code);
    this.logger.log({ msg: `the hotel content of ${vendors.join(', ')} is imported at start and every ${this.env.CONTENT_REFRESH_H} hours` });
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop?.stop();
  }

  /** One look: imports each vendor whose content is due, unless another replica has it in hand. */
  async tick(): Promise<void> {
    for (const supplier of this.imports.contentVendors()) {
      try {
        const trigger = await this.imports.due(supplier.code);
        if (trigger) await this.imports.runLeased(supplier, trigger);
      } catch (error) {
        this.logger.warn({ msg: `the content import of ${supplier.code} could not run: ${error instanceof Error ? error.message : String(error)}; tried again at the next look`, vendor: supplier.code });
      }
    }
  }
}
