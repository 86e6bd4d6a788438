import { OPERATIONS, OperationKey, Operations } from './operations';
import { ServiceName } from './identities';

/** Every request subject of the platform by its operation's name, as declared in OPERATIONS (operations.ts). */
export const SUBJECTS = Object.fromEntries(Object.entries(OPERATIONS).map(([key, operation]) => [key, operation.subject])) as {
  readonly [K in OperationKey]: Operations[K]['subject'];
};

export type Subject = (typeof SUBJECTS)[keyof typeof SUBJECTS];

export const HEALTH_SUBJECT_BY_SERVICE = {
  search: SUBJECTS.SEARCH_HEALTH_CHECK,
  rates: SUBJECTS.RATES_HEALTH_CHECK,
  booking: SUBJECTS.BOOKING_HEALTH_CHECK,
  promo: SUBJECTS.PROMO_HEALTH_CHECK,
  users: SUBJECTS.USERS_HEALTH_CHECK,
  accounting: SUBJECTS.ACCOUNTING_HEALTH_CHECK,
  webhooks: SUBJECTS.WEBHOOKS_HEALTH_CHECK,
} as const satisfies Record<ServiceName, Subject>;
