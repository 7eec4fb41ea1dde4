/**
 * A publisher in a process of its own, for publish-server.test.ts: publishes the index at argv[4] into
 * argv[2] (schema argv[3]) as repository "demo", one file per batch, and kills itself (SIGKILL, no
 * cleanup of any kind) after the first batch when argv[5] is "kill".
 */
import { connectPostgres } from "../../../src/store/postgres/client.ts";
import { publishIndex } from "../../../src/store/postgres/publish.ts";
import { IndexStore } from "../../../src/store/index-store.ts";

const [url, schema, indexPath, mode] = process.argv.slice(2) as [string, string, string, string | undefined];
const client = connectPostgres(url);
const store = IndexStore.open(indexPath, { readonly: true });
await publishIndex(client, "demo", store, {
  schema,
  batchFiles: 1,
  onBatch: (written) => {
    if (mode === "kill" && written === 1) {
      process.stdout.write("batch written\n");
      process.kill(process.pid, "SIGKILL");
    }
  },
});
await client.close();
process.stdout.write("published\n");
