/**
 * What the harness asks of a ranker: given an issue's text, the repository's files best first. One
 * ranker instance serves one repository from its first base commit to its last, so it may keep state
 * (an index it updates by the corpus's changes) between instances.
 */
import type { Session } from "../../src/tools/index.ts";
import type { CorpusChange, CorpusFile } from "./corpus.ts";
import type { Instance } from "./dataset.ts";

export interface RankRequest {
  instance: Instance;
  /** The query: the raw problem statement. */
  query: string;
  /** The corpus at the instance's base commit, and what changed since the previous instance. */
  corpus: ReadonlyMap<string, CorpusFile>;
  change: CorpusChange;
  /** cortex over the corpus folder, indexed at this commit (when the harness indexes). */
  session: Session;
}

/** A ranked piece of a file: what function-level metrics compare with a labelled function's span. */
export interface RankedChunk {
  path: string;
  start_line: number;
  end_line: number;
  /** cortex's chunk type (definitions, symbols, data, documentation). */
  chunk_type: string;
  /** What the chunk defines, when it is a definition: function, method, class… */
  kind?: string;
  name?: string;
}

export interface Ranker {
  readonly name: string;
  /** Root-relative paths, best first. Paths the ranker did not return count as not found. */
  rank(request: RankRequest): Promise<string[]>;
  /** Chunks best first, for instances labelled with functions; rankers that rank whole files lack it. */
  rankChunks?(request: RankRequest): Promise<RankedChunk[]>;
}

/** Makes a fresh ranker for one repository. */
export type RankerFactory = () => Ranker;
