/**
 * How a reader's source string names a shared store: `postgres:<schema>:<repositories>` (open.ts parses
 * the rest). Its own module, so that telling a source's kind loads no PostgreSQL code: open-reader.ts
 * loads the driver only for a shared store's source.
 */
export const POSTGRES_SOURCE_PREFIX = "postgres:";
