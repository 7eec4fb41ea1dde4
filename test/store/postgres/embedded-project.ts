/**
 * Projects for the vector tests: indexed by the real pipeline with the tiny embedding model configured,
 * and embedded whole into the process's vector cache (what a publisher hands the shared store).
 */
import { expect } from "bun:test";
import { Session } from "../../../src/tools/session.ts";
import { IndexStore } from "../../../src/store/index-store.ts";
import { indexLocation } from "../../../src/store/location.ts";
import type { PublishVectors } from "../../../src/store/postgres/vectors.ts";
import { tinyModelFolder } from "../../embed/helpers.ts";
import { tmpProject, type TmpProject } from "../../helpers/tmp-project.ts";

const tiny = tinyModelFolder();
// test files of one process share this module: the model goes when the process does
process.on("exit", () => tiny.remove());
export const CONFIG = `embeddings:\n  model: tiny-test-model\n  model_path: ${tiny.dir}\n  batch_size: 8\n`;

export const APP: Record<string, string> = {
  "auth/login.go": `package auth\n\n// Login checks the user's password and opens a session with a token.\nfunc Login(user, password string) (*Session, error) {\n\treturn newSession(user), nil\n}\n`,
  "auth/roles.go": `package auth\n\n// Authorize tells whether the account's role has the permission.\nfunc Authorize(account Account, permission string) bool {\n\treturn account.Role.Has(permission)\n}\n`,
  "billing/invoice.go": `package billing\n\n// ComputeTotal adds up the order lines and returns the total sum.\nfunc ComputeTotal(prices []float64) float64 {\n\ttotal := 0.0\n\tfor _, p := range prices {\n\t\ttotal += p\n\t}\n\treturn total\n}\n`,
  "storage/db.go": `package storage\n\n// Insert writes one row into the sql table of the database.\nfunc Insert(db *DB, table string, row Row) error {\n\treturn db.Exec("INSERT INTO " + table, row)\n}\n`,
  "storage/migrate.go": `package storage\n\n// Migrate applies each schema migration in one transaction and commits it.\nfunc Migrate(db *DB, steps []Step) error {\n\treturn db.Transaction(steps)\n}\n`,
  "web/handler.go": `package web\n\n// ServeHTTP routes the http request to its handler and writes the response.\nfunc ServeHTTP(w Writer, r *Request) {\n\troute(r.URL).handle(w, r)\n}\n`,
  "parse/lexer.go": `package parse\n\n// Scan runs the lexer over the syntax and builds the tree of each expression.\nfunc Scan(src string) *Tree {\n\treturn newParser(src).expression()\n}\n`,
  "files/read.go": `package files\n\n// ReadAll opens the file at path and reads the stream into a buffer.\nfunc ReadAll(path string) ([]byte, error) {\n\treturn readStream(open(path))\n}\n`,
  "jobs/worker.go": `package jobs\n\n// Run starts a worker thread per queue and takes the lock for each channel.\nfunc Run(queue Queue) {\n\tgo worker(queue)\n}\n`,
  "cache/ttl.go": `package cache\n\n// Evict drops cached entries whose ttl expired.\nfunc Evict(c *Cache) int {\n\treturn c.expire()\n}\n`,
};

export const OTHER: Record<string, string> = {
  "session/token.ts": `// Issues a login token for the user's session after the password check.\nexport function issueToken(user: string): string {\n  return sign(user);\n}\n`,
  "db/query.ts": `// Runs a sql query against the database and returns each row.\nexport function query(sql: string): Row[] {\n  return database.select(sql);\n}\n`,
  "http/router.ts": `// The router picks the handler of each http request by its url.\nexport function route(url: string): Handler {\n  return routes[url];\n}\n`,
  "config/env.ts": `// Reads each configuration setting from the env, with its default option.\nexport function setting(name: string): string {\n  return env[name] ?? defaults[name];\n}\n`,
  "errors/retry.ts": `// Retries a failed call after a timeout, and throws the error at the end.\nexport function retry(fn: () => void): void {\n  fn();\n}\n`,
};

export const QUERIES = [
  "how is a user signed in with a password",
  "store a record in the database",
  "add up the sum",
  "http request router",
  "read a file from disk",
];

/** A project with the tiny model configured, indexed and fully embedded into the process's vector cache. */
export async function embeddedProject(
  files: Record<string, string>,
): Promise<{ project: TmpProject; session: Session; store: IndexStore; vectors: PublishVectors }> {
  const project = tmpProject({ ...files, ".cortex/config.yml": CONFIG });
  const session = new Session(project.root);
  await session.index();
  expect(await session.embedAll(() => {})).toBe("ready");
  const embedder = session.embedder()!;
  const store = IndexStore.open(indexLocation(project.root).current()!, { readonly: true });
  const vectors: PublishVectors = {
    model: { id: embedder.provider.id, recipe: embedder.provider.recipe },
    dimensions: embedder.cache.dimensions!,
    get: (hashes) => embedder.cache.get(hashes),
  };
  return { project, session, store, vectors };
}

export type EmbeddedProject = Awaited<ReturnType<typeof embeddedProject>>;
