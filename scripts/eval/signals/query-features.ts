/**
 * What an issue's text says beyond its words: the code identifiers it names (backticked, CamelCase,
 * snake_case, dotted, called), the files it points at (traceback frames, `path/to/file.py`, dotted
 * module paths), and its words without English stop words. Each is a candidate ranking signal.
 */
import { tokenize } from "../tokenize.ts";

/** Common English function words: frequent in issue prose, never what an issue is about. */
export const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers him his how i " +
    "if in into is it its itself just me more most my no nor not now of off on once only or other our out over own same " +
    "she should so some such than that the their them then there these they this those through to too under until up very " +
    "was we were what when where which while who whom why will with would you your yours also get got however would like " +
    "using use used want wanted seems seem think expected actual behavior behaviour issue bug example following"
  ).split(" "),
);

export interface QueryFeatures {
  tokens: string[];
  /** Lower-cased identifiers the text presents as code. */
  identifiers: Set<string>;
  /** Path suffixes the text points at ("django/db/models/query.py", "query.py"). */
  pathMentions: string[];
  /** Dotted names turned into candidate file paths ("a.b.c" → "a/b/c.py", "a/b/c/__init__.py", "a/b.py", …). */
  modulePaths: string[];
}

const BACKTICK = /`([^`\n]{1,200})`/g;
const CAMEL = /\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b|\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b/g;
const SNAKE = /\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b/g;
const DOTTED = /\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\b/g;
const CALL = /\b([A-Za-z_][A-Za-z0-9_]*)\(/g;
const PY_PATH = /[A-Za-z0-9_\-./\\]+\.py\b/g;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;

export function queryFeatures(text: string): QueryFeatures {
  const identifiers = new Set<string>();
  const add = (s: string) => {
    for (const m of s.matchAll(IDENT)) if (m[0].length >= 3) identifiers.add(m[0].toLowerCase());
  };
  for (const m of text.matchAll(BACKTICK)) add(m[1]!);
  for (const re of [CAMEL, SNAKE, DOTTED]) for (const m of text.matchAll(re)) add(m[0]);
  for (const m of text.matchAll(CALL)) if (m[1]!.length >= 3) identifiers.add(m[1]!.toLowerCase());
  const pathMentions = [...new Set([...text.matchAll(PY_PATH)].map((m) => m[0].replace(/\\/g, "/").replace(/^\.?\/+/, "")))];
  const modulePaths = new Set<string>();
  for (const m of text.matchAll(DOTTED)) {
    const parts = m[0].split(".");
    if (parts[parts.length - 1] === "py") continue;
    for (let n = parts.length; n >= 2; n--) {
      const p = parts.slice(0, n).join("/");
      modulePaths.add(p + ".py");
      modulePaths.add(p + "/__init__.py");
    }
  }
  return { tokens: tokenize(text), identifiers, pathMentions, modulePaths: [...modulePaths] };
}

/** True when `mention` names `path`: equal, or a suffix of it starting at a folder boundary, or `path` is a suffix of `mention` (absolute traceback paths). */
export function mentionMatches(path: string, mention: string): boolean {
  return mention === path || path.endsWith("/" + mention) || mention.endsWith("/" + path);
}
