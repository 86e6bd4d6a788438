/** class-transformer keeps its metadata storage (the `@Type` of nested classes) in a module its types do not map. */
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
