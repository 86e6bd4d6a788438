import { Controller, DynamicModule, Inject, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit, Type } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { HealthCheckReply, ServiceName, Subject, VendorCircuits } from '@hotel/contracts';
import { ServiceEnv, databasePoolSize } from '../config/env';
import { ServiceDatabaseOptions, isDatabaseUp, openServiceDataSource, serviceDataSourceOptions } from '../database/service-data-source';
import { createValidationPipe } from '../errors/validation';
import { RpcErrorFilter } from '../rpc/rpc-error.filter';
import { ServiceClient } from '../nats/service-client';
import { busCredentials } from '../nats/nats-options';
import { BackgroundJobs } from '../logging/request-context';
import { AppMetrics } from '../metrics/app-metrics';

export const SERVICE_ENV = Symbol('SERVICE_ENV');
export const SERVICE_INSTANCE = Symbol('SERVICE_INSTANCE');
/** The typed NATS client a service uses to call other services. */
export const SERVICE_CLIENT = Symbol('SERVICE_CLIENT');
/** BackgroundJobs naming this service, for work a timer starts. */
export const BACKGROUND_JOBS = Symbol('BACKGROUND_JOBS');
/** The service's AppMetrics, for the figures of its own domain. */
export const APP_METRICS = Symbol('APP_METRICS');

/** Connects the service's own NATS client at start and closes it at shutdown. */
class ServiceClientLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(SERVICE_CLIENT) private readonly client: ServiceClient) {}

  async onApplicationBootstrap() {
    await this.client.connect();
  }

  async onApplicationShutdown() {
    await this.client.close();
  }
}

/** The database as the service sees it, read at each scrape: reachable, and its pool. */
class DatabaseMetrics implements OnModuleInit {
  constructor(
    @Inject(APP_METRICS) private readonly metrics: AppMetrics,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onModuleInit() {
    this.metrics.gauge('hotel_db_up', '1 while the service gets an answer from its database', async (gauge) => gauge.set((await isDatabaseUp(this.dataSource)) ? 1 : 0));
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    this.metrics.gauge(
      'hotel_db_pool_connections',
      'The PostgreSQL pool: connections open (total), idle, and clients waiting for one',
      (gauge) => {
        gauge.set({ state: 'total' }, pool.totalCount);
        gauge.set({ state: 'idle' }, pool.idleCount);
        gauge.set({ state: 'waiting' }, pool.waitingCount);
      },
      ['state'],
    );
  }
}

export interface ServicePlatformOptions {
  /** Service name: its NATS identity and queue group, and its PostgreSQL schema. */
  name: ServiceName;
  env: ServiceEnv;
  healthSubject: Subject;
  entities: ServiceDatabaseOptions['entities'];
  migrations: ServiceDatabaseOptions['migrations'];
}

/** Names one replica in health replies and logs. */
export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** What a service adds to its health reply that only it knows (set by the providers that know it). */
export class HealthDetails {
  /** Its remote vendors' circuit breakers. */
  vendors?: () => VendorCircuits;
}

function healthController(service: string, subject: Subject, instance: string): Type<unknown> {
  @Controller()
  class HealthController {
    constructor(
      @InjectDataSource() private readonly dataSource: DataSource,
      private readonly details: HealthDetails,
    ) {}

    @MessagePattern(subject)
    async check(): Promise<HealthCheckReply> {
      const vendors = this.details.vendors?.();
      return { service, instance, database: (await isDatabaseUp(this.dataSource)) ? 'up' : 'down', ...(vendors && Object.keys(vendors).length > 0 && { vendors }) };
    }
  }
  return HealthController;
}

/**
 * What every service needs once: its validated env, its own schema with
 * migrations run at start, the health subject, validation of every incoming
 * message, request-id context and the RPC error filter.
 */
@Module({})
export class ServicePlatformModule {
  static forService(options: ServicePlatformOptions): DynamicModule {
    const instance = newInstanceId();
    const metrics = new AppMetrics(options.name);
    return {
      module: ServicePlatformModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () =>
            serviceDataSourceOptions({
              schema: options.name,
              url: options.env.DATABASE_URL,
              poolSize: databasePoolSize(options.env),
              acquireTimeoutMs: options.env.DB_ACQUIRE_TIMEOUT_MS,
              preparedStatements: options.env.DB_PREPARED_STATEMENTS === 'on',
              entities: options.entities,
              migrations: options.migrations,
            }),
          dataSourceFactory: async (dataSourceOptions) => openServiceDataSource(new DataSource(dataSourceOptions!), options.name),
        }),
      ],
      controllers: [healthController(options.name, options.healthSubject, instance)],
      providers: [
        { provide: SERVICE_ENV, useValue: options.env },
        { provide: SERVICE_INSTANCE, useValue: instance },
        { provide: BACKGROUND_JOBS, useValue: new BackgroundJobs(options.name, instance) },
        { provide: APP_METRICS, useValue: metrics },
        HealthDetails,
        {
          provide: SERVICE_CLIENT,
          useFactory: () => new ServiceClient(busCredentials(options.env, options.name), options.env.RPC_TIMEOUT_MS).recordTo(metrics),
        },
        ServiceClientLifecycle,
        DatabaseMetrics,
        { provide: APP_FILTER, useClass: RpcErrorFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
      exports: [SERVICE_ENV, SERVICE_INSTANCE, SERVICE_CLIENT, BACKGROUND_JOBS, APP_METRICS, HealthDetails],
    };
  }
}
