/**
 * Style rules written in the project's own documents: CONTRIBUTING, STYLE / CODE_STYLE / CONVENTIONS /
 * GUIDELINES files, docs/ pages about style or conventions, and architecture decision records. A rule is
 * a list item or a sentence that prescribes (must, should, never, always, prefer, avoid, use, don't…),
 * reported with its file, line and the heading it sits under.
 */
import { categorize, type StyleCategory } from "./categories.ts";

export interface StyleRule {
  rule: string;
  category: StyleCategory;
  source: { file: string; line: number; section?: string };
  kind: "document" | "config";
}

const DOC_NAME =
  /(^|\/)(contributing|style|code[_-]?style|coding[_-]?(standards?|guidelines?|style)|conventions?|guidelines?|development|hacking)[^/]*\.(md|markdown|rst|txt|adoc)$/i;
const ADR = /(^|\/)(adrs?|decisions?|architecture\/decisions?)\/[^/]+\.(md|markdown|rst)$|(^|\/)adr[-_]?\d+[^/]*\.(md|markdown)$/i;
const DOCS_DIR = /(^|\/)docs?\/[^/]*(style|convention|contribut|guideline|standard|practice|architecture)[^/]*\.(md|markdown|rst|adoc)$/i;
const NORMATIVE = /\b(must|should|shall|never|always|prefer|avoid|don't|do not|use|keep|make sure|ensure|required|forbidden|only|instead of)\b/i;

export function isStyleDocument(path: string): boolean {
  return DOC_NAME.test(path) || ADR.test(path) || DOCS_DIR.test(path);
}

export function documentRules(path: string, text: string): StyleRule[] {
  const rules: StyleRule[] = [];
  const lines = text.split("\n");
  const headings: string[] = [];
  let inFence = false;
  const isAdr = ADR.test(path);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^\s*(```|~~~)/.test(raw)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const h = /^(#{1,6})\s+(.+?)\s*#*$/.exec(raw);
    if (h) {
      headings.length = h[1]!.length - 1;
      headings[h[1]!.length - 1] = h[2]!;
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$/.exec(raw);
    const candidate = item ? item[1]! : raw.trim();
    if (candidate.length < 12 || candidate.length > 400) continue;
    const section = headings.filter(Boolean).join(" > ");
    // list items under a rules-like heading count even without a normative word; prose needs one
    const underRules = /rule|convention|guideline|style|standard|do('| no)?t|practice|decision/i.test(section);
    if (!(NORMATIVE.test(candidate) || (item && underRules) || (isAdr && /^decision\b/i.test(section)))) continue;
    if (!item && !/[.!:]$/.test(candidate)) continue;
    const rule = candidate.replace(/\*\*|__|`/g, "").replace(/\[([^\]]+)\]\([^)]*\)/g, "$1");
    rules.push({ rule, category: categorize(section, rule), source: { file: path, line: i + 1, ...(section ? { section } : {}) }, kind: "document" });
  }
  return rules;
}
