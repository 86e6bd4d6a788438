import { createHash } from 'node:crypto';
import { Client } from 'pg';

const MAX_NAMED_STATEMENTS = 2000;
const statementNames = new Map<string, string>();

/**
 * The pg client every service's pool uses: a statement with parameters is prepared
 * once per connection (a named statement, named after its text) and afterwards only
 * bound and executed, so PostgreSQL parses and plans the hot statements once per
 * connection instead of on every call. TypeORM sends text and values; this is where
 * they get their name. Statements without parameters (BEGIN, COMMIT, DDL) go as before.
 */
export class PreparingClient extends Client {
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && args.length === 2) {
      const name = statementName(text);
      if (name) return (super.query as (config: unknown) => never)({ name, text, values });
    }
    return (super.query as (...rest: unknown[]) => never)(...args);
  }
}

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  // Dynamically built statements (list filters) are many but bounded; past the cap they go unnamed.
  if (!name && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `s_${createHash('sha1').update(text).digest('base64url')}`;
    statementNames.set(text, name);
  }
  return name;
}
