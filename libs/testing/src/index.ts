export * from './test-nats';
export * from './test-database';
export * from './https-client';
export * from './https-fetch';
export * from './log-capture';
export * from './tcp-proxy';
export * from './service-harness';
export * from './platform-api';
