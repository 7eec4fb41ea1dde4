/**
 * Turns argv into the raw input object of a tool, reading the tool's own zod schema to know each
 * field's type: numbers are converted, booleans are flags (--x, --no-x), arrays repeat, objects are JSON.
 * Validation is then the schema's, the same one MCP uses, so defaults and messages cannot drift.
 */
import type { z } from "zod";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CortexError } from "../core/errors.ts";
import type { CliSpec } from "../tools/define.ts";
import { toFlag } from "../tools/define.ts";
import { formatIssues } from "../core/zod-issues.ts";

type Kind = "string" | "number" | "boolean" | "array" | "json";

/** The base kind of a schema field, looking through optional / default / pipe wrappers. */
export function fieldKind(schema: z.ZodType): { kind: Kind; element?: Kind } {
  let s: any = schema;
  for (let i = 0; i < 10 && s; i++) {
    const t = s.def?.type;
    if (t === "optional" || t === "default" || t === "nullable" || t === "prefault" || t === "readonly" || t === "catch") s = s.def.innerType;
    else if (t === "pipe") s = s.def.in;
    else break;
  }
  const t = s?.def?.type;
  switch (t) {
    case "string":
    case "enum":
    case "literal":
      return { kind: "string" };
    case "number":
    case "int":
      return { kind: "number" };
    case "boolean":
      return { kind: "boolean" };
    case "array":
      return { kind: "array", element: fieldKind(s.def.element).kind };
    default:
      return { kind: "json" };
  }
}

/** Looks through optional / default wrappers to an object schema's fields. */
function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  let s: any = schema;
  for (let i = 0; i < 10 && s; i++) {
    const t = s.def?.type;
    if (t === "optional" || t === "default" || t === "nullable" || t === "prefault" || t === "readonly") s = s.def.innerType;
    else break;
  }
  return s?.def?.type === "object" ? s.def.shape : undefined;
}

/** The schema of field `child` of an object-valued field's schema, or undefined. */
export function objectFieldSchema(schema: z.ZodType | undefined, child: string): z.ZodType | undefined {
  return objectShape(schema)?.[child];
}

/** A field's schema; `parent.child` names a field of an object-valued field (a flag for `filters.language`). */
function fieldSchema(shape: Record<string, z.ZodType>, field: string): z.ZodType {
  const dot = field.indexOf(".");
  if (dot < 0) return shape[field]!;
  const inner = objectFieldSchema(shape[field.slice(0, dot)], field.slice(dot + 1));
  if (!inner) throw new Error(`cli flag maps to unknown field ${field}`);
  return inner;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment): "--wirte" is one edit from
 * "--write", where plain Levenshtein counts two, and swapped letters are the commonest typing slip.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate a mistyped word most likely meant, or undefined. Leading dashes are not counted (so "-x"
 * is not one edit from "-v"); the edits allowed grow with the word: none for one or two letters (any
 * two-letter word is near some flag), one up to five letters, two beyond (as git and cargo suggest). A word
 * of three letters or more that begins exactly one candidate also names it ("mem" for memory).
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const bare = (w: string) => w.replace(/^-+/, "").toLowerCase();
  const w = bare(word);
  const allowed = w.length <= 2 ? 0 : w.length <= 5 ? 1 : 2;
  let best: string | undefined;
  let bestD = Infinity;
  // by spelling with _ as -: --max-tokens and --max_tokens are one flag
  const prefixed = new Map<string, string>();
  for (const c of candidates) {
    if (c === word) continue;
    const dashes = (s: string) => /^-*/.exec(s)![0].length;
    // a flag suggests flags, a word words
    if (dashes(word) > 0 !== dashes(c) > 0) continue;
    const d = editDistance(w, bare(c));
    if (d < bestD) [best, bestD] = [c, d];
    const key = bare(c).replace(/_/g, "-");
    if (w.length >= 3 && bare(c).startsWith(w) && !prefixed.has(key)) prefixed.set(key, c);
  }
  if (best !== undefined && bestD <= allowed) return best;
  return prefixed.size === 1 ? [...prefixed.values()][0] : undefined;
}

/** ": did you mean 'X'?" (or after another separator) for an error message, or "" when nothing is near enough. */
export function didYouMean(word: string, candidates: Iterable<string>, separator = ":"): string {
  const c = closest(word, candidates);
  return c === undefined ? "" : `${separator} did you mean '${c}'?`;
}

/** How the parsed flags ask for the result to be printed. */
export function outputMode(p: ParsedArgs): "text" | "json" | "ndjson" {
  return p.ndjson ? "ndjson" : p.json ? "json" : "text";
}

export interface ParsedArgs {
  input: Record<string, unknown>;
  /** Flags every command accepts: --json, --ndjson (rows, one a line), --root, --help. */
  json: boolean;
  ndjson: boolean;
  root?: string;
  help: boolean;
}

function convert(kind: Kind, raw: string, flag: string): unknown {
  switch (kind) {
    case "number": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n)) throw new CortexError("INVALID_INPUT", `${flag}: expected a number, got '${raw}'`);
      return n;
    }
    case "boolean":
      if (raw === "true" || raw === "1") return true;
      if (raw === "false" || raw === "0") return false;
      throw new CortexError("INVALID_INPUT", `${flag}: expected true or false, got '${raw}'`);
    case "json":
      try {
        return JSON.parse(raw);
      } catch (e) {
        throw new CortexError("INVALID_INPUT", `${flag}: not valid JSON (${(e as Error).message})`);
      }
    default:
      return raw;
  }
}

/** Where a command's options are described: the command's own --help, not the general one. */
export function seeHelp(cli: CliSpec): string {
  return `see cortex ${cli.command.join(" ")} --help`;
}

/** Every flag a tool's command takes, its own spellings first (the kebab-case form before the field's). */
export function knownFlags(shape: Record<string, z.ZodType>, cli: CliSpec): string[] {
  const fields = Object.keys(shape).flatMap((f) => [`--${toFlag(f)}`, `--${f}`]);
  // --repo and --store send any tool to a shared store (commands.ts): suggested for their typos too
  const common = ["--root", "--json", "--ndjson", "--help", "-h", "--repo", "--store", ...(cli.fromFile ? ["--file"] : [])];
  return [...new Set([...Object.keys(cli.flags ?? {}), ...Object.keys(cli.short ?? {}), ...fields, ...common])];
}

/** Parses the arguments after the subcommand words. */
export function parseToolArgs(argv: string[], shape: Record<string, z.ZodType>, cli: CliSpec): ParsedArgs {
  const byFlag = new Map<string, string>();
  for (const field of Object.keys(shape)) {
    byFlag.set("--" + field, field);
    byFlag.set("--" + toFlag(field), field);
  }
  for (const [f, field] of Object.entries(cli.flags ?? {})) byFlag.set(f, field);
  // A short flag may stand for a fixed value of a field ("-i" → "case_sensitive=false").
  const fixed = new Map<string, { field: string; value: string }>();
  for (const [f, target] of Object.entries(cli.short ?? {})) {
    const eq = target.indexOf("=");
    if (eq > 0) fixed.set(f, { field: target.slice(0, eq), value: target.slice(eq + 1) });
    else byFlag.set(f, target);
  }

  const out: ParsedArgs = { input: {}, json: false, ndjson: false, help: false };
  const positionals: string[] = [];
  const set = (field: string, value: unknown, flag: string) => {
    const dot = field.indexOf(".");
    if (dot > 0) {
      const parent = field.slice(0, dot);
      const child = field.slice(dot + 1);
      const prev = out.input[parent];
      const obj = (prev && typeof prev === "object" && !Array.isArray(prev) ? prev : {}) as Record<string, unknown>;
      // an array field of an object (--path for filters.paths) repeats, as a top-level one does
      if (fieldKind(fieldSchema(shape, field)).kind === "array") {
        const had = obj[child];
        const values = Array.isArray(value) ? value : [value];
        out.input[parent] = { ...obj, [child]: Array.isArray(had) ? [...had, ...values] : values };
        return;
      }
      if (child in obj) throw new CortexError("INVALID_INPUT", `${flag} given twice`);
      out.input[parent] = { ...obj, [child]: value };
      return;
    }
    const { kind } = fieldKind(shape[field]!);
    if (kind === "json" && field in out.input && typeof value === "object" && value && !Array.isArray(value)) {
      // an object given whole (--filters '{…}') after or before flags for its fields: merge them
      out.input[field] = { ...(out.input[field] as object), ...(value as object) };
      return;
    }
    if (kind === "array") {
      const prev = out.input[field];
      const values = Array.isArray(value) ? value : [value];
      out.input[field] = Array.isArray(prev) ? [...prev, ...values] : values;
    } else {
      if (field in out.input && kind !== "boolean") throw new CortexError("INVALID_INPUT", `${flag} given twice`);
      out.input[field] = value;
    }
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "--json") {
      out.json = true;
      continue;
    }
    if (arg === "--ndjson") {
      out.ndjson = true;
      continue;
    }
    if (arg === "--help" || arg === "-h") {
      out.help = true;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-" || /^-\d/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    let name = eq > 0 ? arg.slice(0, eq) : arg;
    let inline: string | undefined = eq > 0 ? arg.slice(eq + 1) : undefined;
    // a short flag with its value attached, as ripgrep takes it (-C0, -C2): only a flag that takes a value
    if (inline === undefined && /^-[A-Za-z]./.test(arg) && !byFlag.has(arg)) {
      const short = arg.slice(0, 2);
      const target = byFlag.get(short);
      if (target && fieldKind(fieldSchema(shape, target)).kind !== "boolean") {
        name = short;
        inline = arg.slice(2);
      }
    }
    if (name === "--root") {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new CortexError("INVALID_INPUT", "--root needs a path");
      out.root = v;
      continue;
    }
    if (name === "--file" && cli.fromFile) {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new CortexError("INVALID_INPUT", "--file needs a path");
      let text: string;
      try {
        text = readFileSync(v, "utf8");
      } catch (e) {
        throw new CortexError("INVALID_INPUT", `--file: cannot read ${v}: ${(e as Error).message}`);
      }
      set(cli.fromFile, convert("json", text, `--file ${v}`), "--file");
      continue;
    }
    const preset = fixed.get(name);
    if (preset) {
      set(preset.field, convert(fieldKind(fieldSchema(shape, preset.field)).kind, preset.value, name), name);
      continue;
    }
    let field = byFlag.get(name);
    let negated = false;
    if (!field && name.startsWith("--no-")) {
      field = byFlag.get("--" + name.slice(5));
      negated = field !== undefined && fieldKind(fieldSchema(shape, field)).kind === "boolean";
      if (!negated) field = undefined;
    }
    if (!field) {
      throw new CortexError("INVALID_INPUT", `unknown option ${name}${didYouMean(name, knownFlags(shape, cli))} (${seeHelp(cli)})`);
    }
    const { kind, element } = fieldKind(fieldSchema(shape, field));
    if (kind === "boolean") {
      set(field, negated ? false : inline === undefined ? true : convert("boolean", inline, name), name);
      continue;
    }
    if (inline === undefined) {
      inline = argv[++i];
      if (inline === undefined) throw new CortexError("INVALID_INPUT", `${name} needs a value`);
    }
    if (kind === "array") {
      const v = inline.trim().startsWith("[") ? convert("json", inline, name) : convert(element ?? "string", inline, name);
      set(field, v, name);
    } else set(field, convert(kind, inline, name), name);
  }

  if (out.json && out.ndjson) throw new CortexError("INVALID_INPUT", "--json and --ndjson: give one (--json prints the whole result, --ndjson its rows)");
  const names = cli.positionals ?? [];
  if (positionals.length > names.length) {
    const extras = positionals.slice(names.length);
    const command = `cortex ${cli.command.join(" ")}`;
    if (names.length === 0) throw new CortexError("INVALID_INPUT", `unexpected argument: ${extras.join(" ")} (${command} takes none; ${seeHelp(cli)})`);
    // the two slips behind most extra words: a path after the pattern as ripgrep takes it (cortex grep
    // TODO src), when the words are paths there, and a query of several words unquoted (cortex search how
    // are sessions expired), when the command's summary quotes its argument
    const labels = positionalLabels(cli);
    const hints = [`${command} takes ${labels.map((l) => `<${l}>`).join(" ")}`];
    const base = out.root ?? process.cwd();
    if (cli.flags?.["--path"] && extras.every((e) => existsSync(resolve(base, e)))) {
      hints.push(`a path goes after --path (${extras.map((e) => `--path ${e}`).join(" ")})`);
    } else if (names.length === 1 && /["']</.test(cli.summary.slice(cli.summary.indexOf(`${command} `)))) {
      hints.push(`quote a ${labels[0]} of several words`);
    }
    throw new CortexError("INVALID_INPUT", `too many arguments: ${extras.join(" ")}: ${hints.join("; ")} (${seeHelp(cli)})`);
  }
  positionals.forEach((p, i) => {
    const field = names[i]!;
    const { kind, element } = fieldKind(shape[field]!);
    set(field, kind === "array" ? convert(element ?? "string", p, field) : convert(kind, p, field), field);
  });
  return out;
}

/** The flag a help or an error shows for a field: the command's own alias (--lang), else the field's kebab form. */
export function flagFor(field: string, cli: CliSpec): string {
  return Object.entries(cli.flags ?? {}).find(([, f]) => f === field)?.[0] ?? `--${toFlag(field)}`;
}

/**
 * The names the usage shows for a command's positional arguments: as its summary writes them (grep's
 * `cortex grep <pattern>`, concept's "<description>"), else the fields' names.
 */
export function positionalLabels(cli: CliSpec): string[] {
  const names = cli.positionals ?? [];
  const prefix = `cortex ${cli.command.join(" ")} `;
  const at = cli.summary.indexOf(prefix);
  if (at >= 0) {
    // the arguments come before the first option or bracket
    const args = cli.summary.slice(at + prefix.length).split(/\s[-[(]/)[0]!;
    const labels = [...args.matchAll(/<([^<>]+)>/g)].map((m) => m[1]!);
    if (labels.length === names.length) return labels;
  }
  return names;
}

/** A command's usage with its positional arguments: `cortex graph <operation> <target>`. */
export function usageOf(cli: CliSpec): string {
  return `cortex ${cli.command.join(" ")}${positionalLabels(cli)
    .map((p) => ` <${p}>`)
    .join("")}`;
}

/**
 * Validates a command's input with the tool's schema, as MCP does, but says what to type when an argument
 * the command needs is missing: "query: is required" named a schema field, where `cortex grep` wants
 * `cortex grep <pattern>`; a required option left out is named by its flag (pattern's --lang <language>,
 * not 47 languages). A value given but wrong keeps the schema's message, with the accepted value nearest
 * to it when the field takes one of a list (graph's operation: calers → callers).
 */
export function checkToolInput(schema: z.ZodType, input: Record<string, unknown>, cli: CliSpec): void {
  const r = schema.safeParse(input);
  if (r.success) return;
  const issues = r.error.issues;
  const fields = [...new Set(issues.map((i) => i.path[0]).filter((f): f is string => typeof f === "string"))];
  const missing = fields.filter((f) => !(f in input));
  if (missing.length > 0) {
    const names = cli.positionals ?? [];
    const labels = positionalLabels(cli);
    const flags = missing.filter((f) => !names.includes(f)).map((f) => `${flagFor(f, cli)} <${f}>`);
    const needs = [...names.flatMap((f, k) => (missing.includes(f) ? [`<${labels[k]}>`] : [])), ...flags];
    const list = needs.length === 1 ? needs[0] : `${needs.slice(0, -1).join(", ")} and ${needs.at(-1)}`;
    const usage = [usageOf(cli), ...flags, "[options]"].join(" ");
    throw new CortexError("INVALID_INPUT", `cortex ${cli.command.join(" ")} needs ${list}: ${usage} (${seeHelp(cli)})`);
  }
  const wrong = issues.find((i) => i.code === "invalid_value" && i.path.length === 1 && typeof input[String(i.path[0])] === "string");
  const near = wrong ? closest(String(input[String(wrong.path[0])]), (wrong as { values: unknown[] }).values.map(String)) : undefined;
  throw new CortexError("INVALID_INPUT", `${formatIssues(issues)}${near ? `; did you mean '${near}'?` : ""}`);
}
