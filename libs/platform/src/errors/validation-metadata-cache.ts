import { getMetadataStorage } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type TargetMetadatas = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;

const CACHED = Symbol('hotel:validation-metadata-cached');

/**
 * class-validator looks up a class's rules on every validation of every object, nested
 * ones included, by walking the rules of every class it knows (about 100 here) with an
 * `instanceof` each: 6.5 µs a lookup, several per message, in every process. The rules of
 * a class do not change once its module is loaded, so the lookup's answer is kept per
 * class and options, and forgotten whenever a rule is added (a module loaded later).
 * Installed once per process, by the validation pipe.
 */
export function cacheValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  const marked = storage as MetadataStorage & { [CACHED]?: true };
  if (marked[CACHED]) return;
  marked[CACHED] = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let cache = new Map<unknown, Map<string, TargetMetadatas>>();
  storage.addValidationMetadata = (metadata) => {
    cache = new Map();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (targetConstructor, targetSchema, always, strictGroups, groups) => {
    let byOptions = cache.get(targetConstructor);
    if (!byOptions) cache.set(targetConstructor, (byOptions = new Map()));
    const key = JSON.stringify([targetSchema ?? null, always, strictGroups, groups ?? null]);
    let found = byOptions.get(key);
    if (!found) {
      found = lookup(targetConstructor, targetSchema, always, strictGroups, groups);
      byOptions.set(key, found);
    }
    return found;
  };
}
