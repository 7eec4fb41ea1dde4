/**
 * One validation path for both surfaces: a tool's input is parsed by its zod schema, and a failure
 * becomes an INVALID_INPUT error whose message names the field and the rule ("limit: must be at most 100").
 */
import type { z } from "zod";
import { CortexError } from "./errors.ts";

type Issue = z.core.$ZodIssue;

function describe(issue: Issue): string {
  const i = issue as any;
  switch (issue.code) {
    case "too_big":
      if (i.origin === "array") return `must have at most ${i.maximum} items`;
      if (i.origin === "string") return `must be at most ${i.maximum} characters`;
      return `must be at most ${i.maximum}`;
    case "too_small":
      if (i.origin === "array") return i.minimum === 1 ? "must not be empty" : `must have at least ${i.minimum} items`;
      if (i.origin === "string") return i.minimum === 1 ? "must not be empty" : `must be at least ${i.minimum} characters`;
      return `must be at least ${i.minimum}`;
    case "invalid_type": {
      // zod 4 keeps the input out of issues unless asked; its message names what it received
      const received = /received (\w+)/.exec(issue.message)?.[1];
      return received === "undefined" ? "is required" : `expected ${i.expected}${received ? `, got ${received}` : ""}`;
    }
    case "invalid_value":
      return `must be one of ${(i.values as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return `unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k: string) => `'${k}'`).join(", ")}`;
    case "invalid_union":
      return "does not match any accepted form" + (i.errors?.[0]?.[0] ? ` (${pathOf(i.errors[0][0].path)}${describe(i.errors[0][0])})` : "");
    case "not_multiple_of":
      return `must be a multiple of ${i.divisor}`;
    case "invalid_format":
      return `must be a valid ${i.format}`;
    default:
      return issue.message;
  }
}

function pathOf(path: PropertyKey[]): string {
  if (path.length === 0) return "";
  return path.map((p, k) => (typeof p === "number" ? `[${p}]` : (k > 0 ? "." : "") + String(p))).join("") + ": ";
}

export function formatIssues(issues: Issue[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${pathOf(i.path) || "input: "}${describe(i)}`)
    .join("; ");
}

export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw ?? {});
  if (!r.success) throw new CortexError("INVALID_INPUT", formatIssues(r.error.issues));
  return r.data;
}
