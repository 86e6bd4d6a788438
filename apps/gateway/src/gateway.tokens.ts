export { SERVICE_CLIENT } from '@hotel/platform';
export const GATEWAY_ENV = Symbol('GATEWAY_ENV');
