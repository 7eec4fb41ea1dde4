/**
 * Turns argv into the raw input object of a tool, reading the tool's own zod schema to know each
 * field's type: numbers are converted, booleans are flags (--x, --no-x), arrays repeat, objects are JSON.
 * Validation is then the schema's, the same one MCP uses, so defaults and messages cannot drift.
 */
import type { z } from "zod";
import { readFileSync } from "node:fs";
import { CortexError } from "../core/errors.ts";
import type { CliSpec } from "../tools/define.ts";
import { toFlag } from "../tools/define.ts";

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
    if (!field) throw new CortexError("INVALID_INPUT", `unknown option ${name} (see --help)`);
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
    const extra = positionals.slice(names.length).join(" ");
    throw new CortexError("INVALID_INPUT", names.length === 0 ? `unexpected argument: ${extra}` : `too many arguments: ${extra}`);
  }
  positionals.forEach((p, i) => {
    const field = names[i]!;
    const { kind, element } = fieldKind(shape[field]!);
    set(field, kind === "array" ? convert(element ?? "string", p, field) : convert(kind, p, field), field);
  });
  return out;
}
