/**
 * The shared store as the command line uses it: connect by URL, publish a finished local index as a
 * repository, list the repositories, remove one, describe the server (for doctor). Everything it reports names the
 * server by its masked URL.
 */
import { IndexStore } from "../index-store.ts";
import { connectPostgres, type PgClient } from "./client.ts";
import { publishIndex, type PublishOptions, type PublishResult, type RemovedRepo, removeRepository } from "./publish.ts";
import { listRepos, type RepoInfo } from "./repos.ts";
import { maskUrl } from "./url.ts";

export interface SharedStoreInfo {
  /** The URL with its password masked. */
  url: string;
  server_version: string;
  /** pgvector is available; without it vectors stay in each process's own vector index. */
  vector: boolean;
  repos: number;
}

export class SharedStore {
  private constructor(
    private readonly client: PgClient,
    readonly url: string,
    readonly schema: string,
  ) {}

  static connect(url: string, options: { schema?: string } = {}): SharedStore {
    return new SharedStore(connectPostgres(url), url, options.schema ?? "cortex");
  }

  /** The server as `doctor` shows it: never the password. */
  get maskedUrl(): string {
    return maskUrl(this.url);
  }

  /** Publishes the finished local index at `indexPath` as repository `repo`'s next generation. */
  async publish(repo: string, indexPath: string, options: Omit<PublishOptions, "schema"> = {}): Promise<PublishResult> {
    const store = IndexStore.open(indexPath, { readonly: true });
    try {
      return await publishIndex(this.client, repo, store, {
        ...options,
        schema: this.schema,
        commit: options.commit ?? (store.getMeta("commit") || undefined),
      });
    } finally {
      store.close();
    }
  }

  /** Removes repository `repo` and all the store holds of it (see removeRepository). */
  remove(repo: string, options: { onWait?: () => void } = {}): Promise<RemovedRepo> {
    return removeRepository(this.client, repo, { ...options, schema: this.schema, url: this.maskedUrl });
  }

  repos(): Promise<RepoInfo[]> {
    return listRepos(this.client, this.schema);
  }

  /** Whether the store can hold vectors: pgvector installed in the database, or offered by the server. */
  async holdsVectors(): Promise<boolean> {
    const [r] = await this.client.query<{ ok: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') OR EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS ok",
    );
    return r?.ok === true;
  }

  async describe(): Promise<SharedStoreInfo> {
    const [v] = await this.client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    const ext = await this.client.query<{ name: string }>("SELECT name FROM pg_available_extensions WHERE name = 'vector'");
    return { url: this.maskedUrl, server_version: v!.v, vector: ext.length > 0, repos: (await this.repos()).length };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
