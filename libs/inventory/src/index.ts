export * from './hash';
export * from './text';
export * from './gazetteer';
export * from './places-index';
export * from './catalog';
export * from './vendors';
export * from './pricing';
export * from './rate-ids';
