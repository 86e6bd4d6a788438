export * from './subjects';
export * from './errors';
export * from './contract-map';
export * from './common/actor';
export * from './common/validators';
export * from './health/health-check';
export * from './users/credentials';
export * from './users/users';
