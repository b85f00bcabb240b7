import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Names for statements, so that each is prepared once per connection: Postgres parses and plans a named
 * statement once on a connection, not on every call, which for the checkpoint read and the projector's
 * statements is a quarter to 40 % of their Postgres CPU (docs/decisions.md, 2026-11-25). A name is the hash
 * of the text, so every user of a connection agrees on it. At most `max` texts are named; a text past
 * them runs unnamed, so however the texts vary a connection holds at most `max` prepared statements.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max = 500) {}

  /** The query of `text` with `values`, as a named statement while the bound allows. */
  query(text: string, values: unknown[]): pg.QueryConfig {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `hireloop-${createHash('sha1').update(text).digest('base64url')}`;
      this.names.set(text, name);
    }
    return name === undefined ? { text, values } : { name, text, values };
  }
}

/** The process's statement names: the statements of its hot paths, a few hundred at most. */
export const statementNames = new StatementNames();

/**
 * The pool with every query of a text and values prepared (`StatementNames`): for a library that queries
 * a pool it is given (the checkpointer's PostgresSaver); everything else of the pool is the pool's own.
 */
export function preparingPool(pool: pg.Pool, names: StatementNames = statementNames): pg.Pool {
  const query = (text: unknown, values?: unknown) =>
    typeof text === 'string' && Array.isArray(values)
      ? pool.query(names.query(text, values))
      : pool.query(text as string, values as unknown[] | undefined);
  return new Proxy(pool, {
    get(target, property) {
      if (property === 'query') return query;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
