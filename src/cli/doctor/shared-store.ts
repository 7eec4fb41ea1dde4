/**
 * doctor's look at the shared store (PostgreSQL), when CORTEX_DATABASE_URL names one: reachable or not,
 * the server's version, pgvector (with it the store holds the
 * chunks' vectors; without it each process embeds what it reads and keeps its own vector index), how many
 * repositories. The URL is shown with its password masked, and
 * an error's text is the store's own, which never carries it (src/store/postgres/client.ts).
 */
import { errorMessage } from "../../core/errors.ts";
import { SharedStore, type SharedStoreInfo } from "../../store/postgres/shared-store.ts";
import { maskUrl, storeUrl } from "../../store/postgres/url.ts";
import type { Problem } from "./checks.ts";

export type SharedStoreReport = { url: string; state: "ready" } & Omit<SharedStoreInfo, "url"> & { vectors: string };

export async function sharedStoreInfo(
  env: Record<string, string | undefined>,
  problems: Problem[],
): Promise<SharedStoreReport | { url: string; state: "unreachable" | "invalid" } | undefined> {
  let url: string | undefined;
  try {
    url = storeUrl(undefined, env);
  } catch (e) {
    problems.push({ area: "store", severity: "error", message: errorMessage(e), fix: "set CORTEX_DATABASE_URL to postgres://user@host:port/database" });
    return { url: maskUrl(env.CORTEX_DATABASE_URL ?? ""), state: "invalid" };
  }
  if (url === undefined) return undefined;
  const store = SharedStore.connect(url);
  try {
    const { url: masked, ...info } = await store.describe();
    const vectors = info.vector
      ? "pgvector available: cortex index --repo stores each chunk's vector (HNSW, cosine) and semantic search finds the nearest chunks in SQL"
      : "pgvector not installed: the store holds no vectors, so each process embeds the chunks it reads (cached in its own ~/.cortex/embeddings) and searches its own in-memory vector index";
    return { url: masked, state: "ready", ...info, vectors };
  } catch (e) {
    problems.push({ area: "store", severity: "error", message: errorMessage(e), fix: "check CORTEX_DATABASE_URL, the server and the role's rights" });
    return { url: store.maskedUrl, state: "unreachable" };
  } finally {
    await store.close();
  }
}
