import { Inject, Injectable, Logger, OnApplicationBootstrap, Provider } from '@nestjs/common';
import { EVENTS, FxRateSet, SUBJECTS } from '@hotel/contracts';
import { SERVICE_CLIENT, SERVICE_ENV, ServiceClient } from '@hotel/platform';
import { FxRatesCache, fxPolicyOf } from './fx';

/** Where a service's exchange rates come from, and how long it keeps them between asks. */
export interface FxRateSource {
  load(): Promise<readonly FxRateSet[]>;
  ttlMs: number;
}

/** Injection token of the FxRateSource (see fxRatesFromOwner for search's). */
export const FX_RATE_SOURCE = Symbol('FX_RATE_SOURCE');

/**
 * The exchange rates a service converts vendors' prices with (search and rates): kept
 * from their source, asked again when the rates service announces new ones, after a
 * reconnect to the broker (an announcement may have been missed) and after the
 * source's ttl.
 */
@Injectable()
export class FxRates implements OnApplicationBootstrap {
  readonly cache: FxRatesCache;
  private readonly logger = new Logger('FxRates');

  constructor(
    @Inject(FX_RATE_SOURCE) source: FxRateSource,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(SERVICE_ENV) env: { FX_MAX_AGE_DAYS: number; NODE_ENV?: string },
  ) {
    this.cache = new FxRatesCache(() => source.load(), fxPolicyOf(env), (msg, fields) => this.logger.warn({ msg, ...fields }), source.ttlMs);
  }

  onApplicationBootstrap() {
    this.services.onEvent(EVENTS.RATES_FX_RATES_UPDATED, () => this.cache.invalidate());
    this.services.onReconnect(() => this.cache.invalidate());
  }
}

/** A service other than their owner asks the rates service for the sets (RATES_FX_RATES_GET) and keeps them five minutes. */
export function fxRatesFromOwner(): Provider[] {
  return [
    {
      provide: FX_RATE_SOURCE,
      useFactory: (services: ServiceClient): FxRateSource => ({ load: async () => (await services.send(SUBJECTS.RATES_FX_RATES_GET, {})).sets, ttlMs: 5 * 60_000 }),
      inject: [SERVICE_CLIENT],
    },
    FxRates,
  ];
}
