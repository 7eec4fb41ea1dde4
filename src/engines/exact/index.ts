/**
 * The exact-search engine: keyword queries with BM25-ranked lines (cortex_exact) and literal or regex
 * search (search_text_pattern, `cortex grep`), both over the indexed content, both choosing candidate
 * files through the store's text candidates (a trigram query).
 */
import type { IndexReader } from "../../store/contract.ts";
import { ExactIndexView } from "./view.ts";
import { searchText, type TextSearchRequest, type TextSearchOutcome } from "./text-search.ts";
import { searchKeywords, type KeywordSearchRequest, type KeywordSearchOutcome } from "./keyword-search.ts";

export { PathFilter, normaliseExtensions } from "./path-filter.ts";
export type { TextSearchRequest, TextSearchOutcome, TextMatch } from "./text-search.ts";
export { PLAN_CHARS } from "./text-search.ts";
export type { KeywordSearchRequest, KeywordSearchOutcome } from "./keyword-search.ts";

export class ExactEngine {
  private readonly view: ExactIndexView;

  constructor(
    private readonly reader: IndexReader,
    root: string,
  ) {
    this.view = new ExactIndexView(reader, root, reader.source);
  }

  /** Literal or regex search; matching lines in path order. */
  searchText(req: TextSearchRequest): Promise<TextSearchOutcome> {
    return searchText(this.view, req);
  }

  /** Boolean keyword search; lines ranked by BM25, then position. */
  searchKeywords(req: KeywordSearchRequest): Promise<KeywordSearchOutcome> {
    return searchKeywords(this.view, req);
  }

  /** Languages present in the index (to validate language filters). */
  async languages(): Promise<string[]> {
    return Object.keys(await this.reader.languageCounts());
  }
}
