/**
 * @module embed — embedding providers and the background Embedder. Everything exported here is what the
 * rest of cortex may use; anything added becomes part of that surface.
 *
 * Wiring (the composition root does this once per process):
 *
 *   const provider = createEmbeddingProvider(config.embeddings, { home: cortexHome(), root });
 *   const cache = EmbeddingCache.open(provider.id, { home: cortexHome(), recipe: provider.recipe });  // src/store
 *   const embedder = new Embedder(provider, cache);
 *   embedder.onVectors((entries) => …);            // each stored batch, as it is stored
 *   embedder.submit(chunks);                          // {textHash, text}[]: embeds what the cache lacks
 *   embedder.status(hashes).label;                    // "ready" | "partial 42%" | "unavailable: <why>"
 *   embedder.vectors(hashes);                         // Map<textHash, Float32Array> (unit length)
 *   await embedder.embedQuery(query, signal);         // or EMBEDDINGS_UNAVAILABLE at once
 *   await embedder.close();
 */

// ./types.ts
export type { EmbeddingProvider } from "./types.ts";
// ./provider.ts
export { createEmbeddingProvider, type EmbeddingConfig } from "./provider.ts";
// ./embedder.ts
export { Embedder, embeddingsLabel, type ChunkText } from "./embedder.ts";
// ./vector-index.ts
export { VectorIndex } from "./vector-index.ts";
// ./models.ts
export { modelSpec } from "./models.ts";
// ./rerank/cross-encoder.ts
export { CrossEncoder, createCrossEncoder, locateCrossEncoder } from "./rerank/cross-encoder.ts";
