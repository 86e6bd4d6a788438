import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { TestScenario } from '@hotel/contracts';
import type { HotelbedsOperation } from '@hotel/hotelbeds';
import type { FaultPlan } from '../faults/fault-knobs';
import type { VendorCode } from '../inventory/simulated-inventory';

/**
 * The simulator's own extension of the vendor's protocol: a request carrying
 * `X-Test-Scenario` plays one of the platform's sandbox scenarios. No real vendor reads it.
 */
export const SCENARIO_HEADER = 'x-test-scenario';

export const SIMULATOR_SCENARIOS = ['supplier_pending', 'supplier_error', 'price_changed', 'sold_out'] as const satisfies readonly TestScenario[];
export type SimulatorScenario = (typeof SIMULATOR_SCENARIOS)[number];

/** The sandbox desk's prefix (`/sandbox/hotel-api/1.0/…`) and its code in the bookings table. */
export const SANDBOX_DESK = 'sandbox';

/** What the wire hooks learnt of a request to a vendor before its handler runs. */
export interface VendorRequestContext {
  /** A simulated vendor, or the sandbox desk. */
  vendor: VendorCode | 'sandbox';
  /** The client's name of the operation (undefined for a path the vendor does not serve). */
  operation: HotelbedsOperation | undefined;
  scenario: SimulatorScenario | undefined;
  /** By the simulator's clock. */
  startedAt: number;
  /** What a fault does to the answer once the work is done. */
  answerFault: FaultPlan['answer'];
}

declare module 'fastify' {
  interface FastifyRequest {
    vendorContext?: VendorRequestContext;
  }
}

/** `/<vendor>/hotel-api/1.0/…` or `/<vendor>/hotel-content-api/1.0/…`: the vendor and the rest of the path. */
const VENDOR_PATH = /^\/([^/]+)(\/(?:hotel-api|hotel-content-api)\/1\.0(?:\/.*)?)$/;

export function vendorPath(path: string): { vendor: string; rest: string } | undefined {
  const match = VENDOR_PATH.exec(path);
  return match ? { vendor: match[1], rest: match[2] } : undefined;
}

/** Which of the client's operations a request is (as OPERATIONS names them), from its method and path. */
export function operationOf(method: string, rest: string, query: URLSearchParams): HotelbedsOperation | undefined {
  if (rest === '/hotel-api/1.0/hotels' && method === 'POST') return 'availability';
  if (rest === '/hotel-api/1.0/checkrates' && method === 'POST') return 'checkRate';
  if (rest === '/hotel-api/1.0/bookings') return method === 'POST' ? 'booking' : method === 'GET' ? 'bookingList' : undefined;
  if (/^\/hotel-api\/1\.0\/bookings\/[^/]+$/.test(rest)) {
    if (method === 'GET') return 'bookingDetail';
    if (method === 'DELETE') return query.get('cancellationFlag') === 'SIMULATION' ? 'cancellationSimulation' : 'cancellation';
  }
  if (rest === '/hotel-content-api/1.0/hotels' && method === 'GET') return 'contentHotels';
  return undefined;
}

function contextOf(context: ExecutionContext): VendorRequestContext {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (!request.vendorContext) throw new Error('a vendor route ran without its vendor context (the wire hooks did not run)');
  return request.vendorContext;
}

/** The vendor a request is for (its path prefix, checked with its credentials). */
export const VendorOf = createParamDecorator((_: unknown, context: ExecutionContext): VendorCode => contextOf(context).vendor as VendorCode);

/** The sandbox scenario the request plays, if any. */
export const ScenarioOf = createParamDecorator((_: unknown, context: ExecutionContext): SimulatorScenario | undefined => contextOf(context).scenario);
