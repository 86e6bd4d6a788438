export const GATEWAY_ENV = Symbol('GATEWAY_ENV');
export const SERVICE_CLIENT = Symbol('SERVICE_CLIENT');
