/** A small project indexed locally (SQLite), to publish into the shared store in the tests. */
import { Session } from "../../../src/tools/session.ts";
import { IndexStore } from "../../../src/store/index-store.ts";
import { indexLocation } from "../../../src/store/location.ts";
import { copyFixture, tmpProject, type TmpProject } from "../../helpers/tmp-project.ts";
import type { PgClient } from "../../../src/store/postgres/client.ts";
import { publishIndex } from "../../../src/store/postgres/publish.ts";
import { PgIndexReader } from "../../../src/store/postgres/reader.ts";
import type { Backend } from "./backends.ts";

export const FILES: Record<string, string> = {
  "src/server.ts": `import { parseHeader } from "./http/header.ts";\n\n/** Serves requests. */\nexport class Server {\n  handle(raw: string): string {\n    return parseHeader(raw).name;\n  }\n}\n`,
  "src/http/header.ts": `export interface Header {\n  name: string;\n  value: string;\n}\n\n// parseHeader splits "Name: value"\nexport function parseHeader(line: string): Header {\n  const i = line.indexOf(":");\n  return { name: line.slice(0, i).trim(), value: line.slice(i + 1).trim() };\n}\n`,
  "src/util.go": `package util\n\nimport "strings"\n\n// Upper shouts.\nfunc Upper(s string) string {\n\treturn strings.ToUpper(s)\n}\n\nfunc lower(s string) string { return strings.ToLower(s) }\n`,
  "README.md": "# demo\n\nA tiny server that parses HTTP headers.\n",
};

export interface IndexedProject {
  project: TmpProject;
  /** Indexes the project as it is now and opens the finished index (the caller closes it). */
  index(): Promise<IndexStore>;
}

export function indexedProject(files: Record<string, string> = FILES): IndexedProject {
  const project = tmpProject(files);
  return {
    project,
    async index() {
      const session = new Session(project.root);
      await session.index();
      session.close();
      return IndexStore.open(indexLocation(project.root).current()!, { readonly: true });
    },
  };
}

/** A test fixture indexed locally and published into a fresh database, with a reader of that repository. */
export interface PublishedFixture {
  client: PgClient;
  project: TmpProject;
  /** The local index it was published from (to compare answers with). */
  store: IndexStore;
  reader: PgIndexReader;
  /** Closes the local index, removes the project and stops the database. */
  stop(): Promise<void>;
}

/** Copies test/fixtures/<name>, indexes it and publishes it as repository `name` into `backend` (schema `schema`). */
export async function publishedFixture(backend: Backend, name: string, schema: string): Promise<PublishedFixture> {
  const db = await backend.start();
  const project = copyFixture(name);
  const session = new Session(project.root);
  await session.index();
  session.close();
  const store = IndexStore.open(indexLocation(project.root).current()!, { readonly: true });
  await publishIndex(db.client, name, store, { schema });
  return {
    client: db.client,
    project,
    store,
    reader: new PgIndexReader(db.client, [name], schema),
    async stop() {
      store.close();
      project.cleanup();
      await db.stop();
    },
  };
}
