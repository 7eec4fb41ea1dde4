/**
 * The reader contract's shared suite against the shared store's reader: the fixture's index, built by the
 * real indexer, published into PostgreSQL (PGlite here, always; a real server where the machine has one)
 * and read back through PgIndexReader. The same assertions as the SQLite reader's.
 */
import { setDefaultTimeout } from "bun:test";
import { publishIndex } from "../../src/store/postgres/publish.ts";
import { PgIndexReader } from "../../src/store/postgres/reader.ts";
import { IndexStore } from "../../src/store/index-store.ts";
import { readerContractSuite } from "./contract-suite.ts";
import { BACKENDS } from "./postgres/backends.ts";

// builds an index and starts a database: seconds on a busy machine
setDefaultTimeout(120_000);

const SCHEMA = "t_contract";
for (const backend of BACKENDS) {
  if (backend.skip !== undefined) continue;
  readerContractSuite(`postgres (${backend.name})`, async ({ indexPath }) => {
    const db = await backend.start();
    const store = IndexStore.open(indexPath, { readonly: true });
    try {
      await publishIndex(db.client, "contract", store, { schema: SCHEMA });
    } finally {
      store.close();
    }
    // the suite closes the reader; the database it reads goes with it
    return new PgIndexReader(db.client, ["contract"], SCHEMA, { close: db.stop });
  });
}
