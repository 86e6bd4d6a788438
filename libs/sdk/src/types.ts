// The SDK's types, all taken from the generated document types (openapi-types.ts): a
// change of the document changes them, and code that no longer fits does not compile.
import type { OPERATIONS } from './openapi-operations';
import type { components, operations } from './openapi-types';

export type Schemas = components['schemas'];
export type OperationId = keyof operations & keyof typeof OPERATIONS;

type JsonContent<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type Responses<O extends OperationId> = operations[O]['responses'];

/** The JSON of an operation's 2xx answers. */
export type SuccessJson<O extends OperationId> = JsonContent<Responses<O>[Extract<keyof Responses<O>, 200 | 201>]>;

/** A page of a list, with `total`, the matches across pages. */
export interface Page<T> {
  data: T[];
  total: number;
}

/**
 * What a method resolves with: the envelope's `data`, a `Page` for lists with `total`,
 * or the answer as it is for answers without an envelope (`POST /v2/rates`).
 */
export type Result<O extends OperationId> =
  [SuccessJson<O>] extends [never]
    ? unknown
    : SuccessJson<O> extends { success: true; total: number; data: (infer T)[] }
      ? Page<T>
      : SuccessJson<O> extends { success: true; data: infer D }
        ? D
        : SuccessJson<O>;

export type PathParams<O extends OperationId> = operations[O]['parameters'] extends { path: infer P } ? P : never;
export type QueryParams<O extends OperationId> = operations[O]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;
export type JsonBody<O extends OperationId> = operations[O] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

/** The values of `X-Test-Scenario` (sandbox keys only). */
export type TestScenario = NonNullable<NonNullable<operations['bookRate']['parameters']['header']>['X-Test-Scenario']>;
export type ErrorCode = Schemas['ErrorCode'];
export type FieldError = Schemas['FieldError'];
export type PaymentMethod = Schemas['PaymentMethod'];

// The resources partners use most, by their names in the document.
export type IdentityView = Schemas['IdentityView'];
export type PlaceResult = Schemas['PlaceResult'];
export type RoomRequest = Schemas['RoomRequest'];
export type SearchBody = Schemas['SearchBody'];
export type SearchData = Schemas['SearchData'];
export type HotelDetails = Schemas['HotelDetails'];
export type HotelRate = Schemas['HotelRate'];
export type HotelRatesData = Schemas['HotelRatesData'];
export type PrebookData = Schemas['PrebookData'];
export type BookCreateBody = Schemas['BookCreateBody'];
export type BookingView = Schemas['BookingView'];
export type BookingStatus = Schemas['BookingStatus'];
export type PrecancelView = Schemas['PrecancelView'];
export type CancelView = Schemas['CancelView'];
export type V2RatesBody = Schemas['V2RatesBody'];
export type V2RatesResponse = Schemas['V2RatesResponse'];
export type V2PrebookBody = Schemas['V2PrebookBody'];
export type V2BookBody = Schemas['V2BookBody'];
export type NewUser = Schemas['NewUser'];
export type UserChanges = Schemas['UserChanges'];
export type UserView = Schemas['UserView'];
export type AccountingEntryView = Schemas['AccountingEntryView'];
export type NewAccountingEntry = Schemas['NewAccountingEntry'];
export type BalanceView = Schemas['BalanceView'];
export type BackendBooking = Schemas['BackendBooking'];
