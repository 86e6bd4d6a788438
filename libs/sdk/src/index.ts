// @hotel/sdk: a TypeScript client of the platform's APIs for partners. Standalone: it
// imports no other workspace library and no package, only its types generated from the
// OpenAPI document (openapi-types.ts), and runs on fetch (Node 20 or later).
export { HotelClient, newIdempotencyKey } from './client';
export type { HotelClientOptions, ScenarioCallOptions } from './client';
export { HotelApiError, HotelNetworkError } from './errors';
export type { CallSite } from './errors';
export type { PollOptions } from './polling';
export type { Failure, RetryEvent, RetryOptions } from './retry';
export type { CallOptions } from './transport';
export type * from './types';
export { OPERATIONS } from './openapi-operations';
export type { components, operations, paths } from './openapi-types';
