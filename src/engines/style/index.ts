/**
 * get_style_guide: the project's own rules, from its documents and its tool configurations, each with
 * its source file and line; filtered by category and by the words of a query.
 */
import type { IndexReader } from "../../store/contract.ts";
import { documentRules, isStyleDocument, type StyleRule } from "./documents.ts";
import { configRules, isStyleConfig } from "./configs.ts";
import type { StyleCategory } from "./categories.ts";
import { rankText } from "../text-match.ts";

export { STYLE_CATEGORIES, type StyleCategory } from "./categories.ts";
export type { StyleRule } from "./documents.ts";

export interface StyleGuide {
  rules: StyleRule[];
  total: number;
  sources: Array<{ file: string; kind: "document" | "config"; rules: number }>;
  categories: Partial<Record<StyleCategory, number>>;
  /** Only when a query or category narrowed them: how many rules the project has in all. */
  project_rules?: number;
}

export class StyleEngine {
  constructor(private readonly store: IndexReader) {}

  async allRules(): Promise<StyleRule[]> {
    const rules: StyleRule[] = [];
    const paths = (await this.store.allFiles())
      .map((f) => f.path)
      .filter((p) => !(p.includes("node_modules/") || p.includes("/vendor/") || p.startsWith("vendor/")) && (isStyleDocument(p) || isStyleConfig(p)));
    const texts = await this.store.contents(paths);
    for (const p of paths) {
      const doc = isStyleDocument(p);
      const cfg = isStyleConfig(p);
      const text = texts.get(p);
      if (text === undefined) continue;
      if (doc) rules.push(...documentRules(p, text));
      if (cfg) rules.push(...configRules(p, text));
    }
    return rules;
  }

  async guide(o: { query?: string; category?: StyleCategory; limit: number }): Promise<StyleGuide> {
    let rules = await this.allRules();
    const all = rules.length;
    if (o.category) rules = rules.filter((r) => r.category === o.category);
    if (o.query) {
      const scores = await rankText(
        rules.map((r, i) => ({ id: String(i), fields: { rule: r.rule, section: r.source.section ?? "", category: r.category } })),
        o.query,
        { rule: 2 },
      );
      rules = rules
        .map((r, i) => ({ r, s: scores.get(String(i)) }))
        .filter((x) => x.s !== undefined)
        .sort((a, b) => b.s! - a.s!)
        .map((x) => x.r);
    }
    const sources = new Map<string, { file: string; kind: "document" | "config"; rules: number }>();
    const categories: Partial<Record<StyleCategory, number>> = {};
    for (const r of rules) {
      const s = sources.get(r.source.file) ?? { file: r.source.file, kind: r.kind, rules: 0 };
      s.rules++;
      sources.set(r.source.file, s);
      categories[r.category] = (categories[r.category] ?? 0) + 1;
    }
    return {
      rules: rules.slice(0, o.limit),
      total: rules.length,
      sources: [...sources.values()],
      categories,
      ...(o.query || o.category ? { project_rules: all } : {}),
    };
  }
}
