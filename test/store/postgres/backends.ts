/**
 * The PostgreSQL databases the reader tests run against: PGlite always, and a real server the test
 * starts itself when the machine has the server binaries (otherwise its tests are skipped, the reason
 * printed once).
 */
import { connectPostgres, type PgClient } from "../../../src/store/postgres/client.ts";
import { startPglite } from "./pglite-client.ts";
import { serverSkipReason, startServer } from "./server.ts";

export interface Backend {
  name: "pglite" | "server";
  /** Why this backend cannot run here, or undefined. */
  skip: string | undefined;
  /** The database, and for a server its URL (a second process or a worker can connect to it; PGlite cannot be shared). */
  start(): Promise<{ client: PgClient; url?: string; stop(): Promise<void> }>;
}

const serverSkip = serverSkipReason();
if (serverSkip !== undefined) console.warn(`skipping the PostgreSQL server tests: ${serverSkip}`);

export const BACKENDS: Backend[] = [
  {
    name: "pglite",
    skip: undefined,
    async start() {
      const { client } = await startPglite();
      return { client, stop: () => client.close() };
    },
  },
  {
    name: "server",
    skip: serverSkip,
    async start() {
      const server = startServer();
      const client = connectPostgres(server.url(), { maxConnections: 4 });
      return {
        client,
        url: server.url(),
        async stop() {
          await client.close();
          server.stop();
        },
      };
    },
  },
];
