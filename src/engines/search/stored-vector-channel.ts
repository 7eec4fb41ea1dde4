/**
 * The vector side of hybrid search over a store that holds the vectors itself (the shared store on a
 * server with pgvector): the query is embedded in this process, and its nearest chunks are found where
 * the vectors are, so the process loads and embeds none of the chunks. When the store has no vectors of
 * this process's model for every repository it reads (no pgvector, another model, a repository published
 * without vectors), the process's own vector index answers instead, as it does for a local index.
 */
import type { ChunkFilters, StoredVectorReader, VectorModel } from "../../store/contract.ts";
import { embeddingsLabel, type Embedder } from "../../embed/index.ts";
import type { EmbeddingsState, VectorChannel } from "./index.ts";
import { queryVector } from "./vector-channel.ts";

export class StoredVectorChannel implements VectorChannel {
  /** The dimension of the store's vectors of this model as of the last refresh; undefined: the own index answers. */
  private dimensions: number | undefined;

  constructor(
    private readonly store: StoredVectorReader,
    private readonly embedder: Embedder,
    /** The process's own vector index over the same chunks. */
    private readonly own: VectorChannel,
  ) {}

  private get model(): VectorModel {
    return { id: this.embedder.provider.id, recipe: this.embedder.provider.recipe };
  }

  /** Asks the store whether it holds this model's vectors (a new generation may have brought or dropped them). */
  async refresh(): Promise<void> {
    this.dimensions = await this.store.storedVectorDimensions(this.model);
    if (this.dimensions === undefined) await this.own.refresh?.();
  }

  /** Every chunk has its vector in the store: ready once the model can embed a query. */
  state(): EmbeddingsState {
    if (this.dimensions === undefined) return this.own.state();
    return embeddingsLabel(this.embedder.provider.state(), 1, 1).label as EmbeddingsState;
  }

  async prepare(timeoutMs: number): Promise<void> {
    await this.refresh();
    if (this.dimensions === undefined) return this.own.prepare?.(timeoutMs);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.embedder.provider.ready().catch(() => {}), new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    if (timer) clearTimeout(timer);
  }

  async search(query: string, k: number, filters: ChunkFilters, signal?: AbortSignal): Promise<Array<{ id: string; score: number }>> {
    await this.refresh();
    if (this.dimensions === undefined) return this.own.search(query, k, filters, signal);
    const vector = await queryVector(this.embedder, query, signal);
    if (vector === undefined) return [];
    return this.store.nearestChunks(this.model, vector, k, filters);
  }
}
