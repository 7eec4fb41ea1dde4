/**
 * find_symbol_occurrences (the kit tool, exactly as the pattern-matching specification has it: status,
 * occurrences with file_path / line_number / column_number / type / symbol_fqn / snippet,
 * occurrence_count, error_message) and get_symbol_references (codebase-context's: usageCount, the top
 * usage snippets, confidence, isComplete). Both read the definitions and resolved references the index
 * stores; `cortex occurrences <name>` and `cortex refs <symbol>` on the command line.
 */
import { z } from "zod";
import { existingPaths, indexedLanguages } from "./filters.ts";
import { staleFiles } from "../engines/freshness.ts";
import { defineTool, READ_ONLY } from "./define.ts";
import { isCortexError } from "../core/errors.ts";
import { SourceLines } from "../engines/graph/source-lines.ts";
import { nameParts } from "../engines/symbols/index.ts";

const occurrencesInput = z
  .object({
    symbol_name: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe("The symbol: partial (`Login`, `Handler.ServeHTTP`) or fully qualified (`auth.Handler.ServeHTTP`, `shop.models.User`)"),
    target_paths: z.array(z.string().min(1)).max(100).optional().describe("Only in these files or folders (root-relative); default: the whole project"),
    find_definitions: z.boolean().default(true).describe("Include the definitions of the symbol (default true)"),
    find_references: z.boolean().default(true).describe("Include references to it: calls, type uses, inheritance, imports, reads (default true)"),
    language: z.string().min(1).optional().describe("Only this language (go, python, typescript, java, …)"),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(200)
      .describe("Occurrences returned at most (1-1000, default 200); occurrence_count is the full count"),
  })
  .strict();

const occurrence = z.object({
  file_path: z.string().describe("Root-relative path"),
  line_number: z.number().int().describe("1-based line"),
  column_number: z.number().int().describe("1-based column where the name is written (UTF-16 code units)"),
  type: z.enum(["definition", "reference", "import"]).describe("definition, reference or import"),
  symbol_fqn: z.string().describe("Qualified name of the definition (for references: of the definition they resolve to, else the name as written)"),
  snippet: z.string().describe("The line, trimmed"),
  kind: z.string().describe("Definition kind (function, method, class…) or reference kind (call, type, inherit, implement, import, read)"),
  resolution: z
    .string()
    .optional()
    .describe("References: exact, import, name-only, cross-repo (through an import of another repository's package, shared store), or unresolved"),
  stale: z.literal(true).optional().describe("The file changed on disk since it was indexed"),
});

const occurrencesOutput = z.object({
  status: z.enum(["success", "no_occurrences_found", "error", "indexing_required"]).describe("success, no_occurrences_found, error or indexing_required"),
  occurrences: z.array(occurrence).describe("Definitions first, then references, each by path and position"),
  occurrence_count: z.number().int().describe("Total occurrences found (may exceed the occurrences returned)"),
  truncated: z.boolean().describe("More occurrences exist than were returned"),
  suggestions: z.array(z.string()).optional().describe("Defined names close to the one asked for, when nothing matched"),
  error_message: z.string().optional().describe("What went wrong (status error / indexing_required) or what was tried (no_occurrences_found)"),
});

type OccurrencesOutput = z.infer<typeof occurrencesOutput>;

export const findSymbolOccurrencesTool = defineTool({
  name: "find_symbol_occurrences",
  title: "Find definitions and references of a symbol",
  description:
    "Find where a symbol (function, method, class, type, constant…) is defined and every place it is used: calls, type " +
    "uses, inheritance and interface implementation, imports, reads. Accepts a partial name (`Login`, `Handler.ServeHTTP`) " +
    "or a qualified one (`auth.Handler.ServeHTTP`); a qualified name matches only references resolved to that definition " +
    "(through imports, the same file or package, the receiver's type) or unresolved ones written with that qualifier. " +
    "Each occurrence has file_path, line_number, column_number, type (definition / reference / import), symbol_fqn and a " +
    "snippet. Comments and strings never count. Nothing found gives status no_occurrences_found with similar names.",
  input: occurrencesInput,
  output: occurrencesOutput,
  annotations: READ_ONLY,
  profiles: ["kit"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  cli: {
    command: ["occurrences"],
    positionals: ["symbol_name"],
    flags: { "--lang": "language", "--path": "target_paths", "--limit": "max_results" },
    summary: "definitions and references of a symbol: cortex occurrences <name> [--path p] [--lang l] [--no-find-references]",
  },
  example: { symbol_name: "get_user_data", max_results: 20 },
  async handler(args, ctx): Promise<OccurrencesOutput> {
    const fail = (status: "error" | "indexing_required", message: string): OccurrencesOutput => ({
      status,
      occurrences: [],
      occurrence_count: 0,
      truncated: false,
      error_message: message,
    });
    if (!args.find_definitions && !args.find_references) return fail("error", "find_definitions and find_references are both false: nothing to find");
    try {
      const paths = args.target_paths ? existingPaths(ctx, args.target_paths, "target_paths") : undefined;
      const engine = await ctx.session.symbols();
      const language = args.language ? (await indexedLanguages(ctx, [args.language], "language", false))[0] : undefined;
      const q = { name: args.symbol_name, ...(paths ? { paths } : {}), ...(language ? { language } : {}) };
      const r = await engine.occurrences(q, { definitions: args.find_definitions, references: args.find_references, limit: args.max_results });
      if (r.total === 0) {
        const suggestions = await engine.suggestions(args.symbol_name);
        const scope = [paths?.length ? `in ${paths.join(", ")}` : "", language ? `in ${language} files` : ""].filter(Boolean).join(" ");
        return {
          status: "no_occurrences_found",
          occurrences: [],
          occurrence_count: 0,
          truncated: false,
          suggestions,
          error_message: `no definition or reference of '${args.symbol_name}'${scope ? " " + scope : ""}${suggestions.length ? `; similar names: ${suggestions.join(", ")}` : ""}`,
        };
      }
      return { status: "success", occurrences: r.occurrences, occurrence_count: r.total, truncated: r.total > r.occurrences.length };
    } catch (e) {
      if (isCortexError(e) && e.code === "INDEX_MISSING") return fail("indexing_required", e.message);
      if (isCortexError(e) && (e.code === "PATH_OUTSIDE_ROOT" || e.code === "INVALID_INPUT")) return fail("error", e.message);
      throw e;
    }
  },
  failure: (r) => (r.status === "error" || r.status === "indexing_required" ? (r.error_message ?? r.status) : undefined),
  rows: (r) => r.occurrences,
  render(r) {
    if (r.status !== "success") return r.error_message ?? r.status;
    const lines = r.occurrences.map(
      (o) => `${o.file_path}:${o.line_number}:${o.column_number}  ${o.type.padEnd(10)} ${o.symbol_fqn}  ${o.snippet}${o.stale ? "  STALE" : ""}`,
    );
    lines.push(`${r.occurrence_count} occurrence${r.occurrence_count === 1 ? "" : "s"}${r.truncated ? ` (${r.occurrences.length} shown)` : ""}`);
    return lines.join("\n");
  },
});

const referencesInput = z
  .object({
    symbol: z.string().trim().min(1).max(500).describe("Symbol to find usages of, partial or qualified (parseConfig, UserService, auth.Login)"),
    limit: z.number().int().min(1).max(200).default(10).describe("Usage snippets returned at most (1-200, default 10); usageCount counts them all"),
  })
  .strict();

const referencesOutput = z.object({
  status: z.literal("success").describe("success (bad input and a missing index are tool errors)"),
  symbol: z.string().describe("The symbol asked for"),
  usageCount: z.number().int().describe("Every reference to the symbol in the project"),
  usages: z
    .array(
      z.object({
        file: z.string(),
        line: z.number().int(),
        column: z.number().int(),
        preview: z.string().describe("The line before, the line and the line after"),
        kind: z.string().describe("call, type, inherit, implement, import or read"),
        resolution: z.string().describe("exact, import, name-only, cross-repo (shared store) or unresolved"),
        enclosing: z.string().optional().describe("The definition the usage is written in"),
        stale: z.literal(true).optional().describe("The file changed on disk since it was indexed"),
      }),
    )
    .describe("The top usages: resolved ones first, then by path"),
  definitions: z
    .array(
      z.object({
        fqn: z.string(),
        kind: z.string(),
        file: z.string(),
        line: z.number().int(),
        stale: z.literal(true).optional().describe("The file changed on disk since it was indexed"),
      }),
    )
    .describe("Where the symbol is defined"),
  confidence: z.literal("syntactic").describe("syntactic: from the source alone (no runtime or dynamic dispatch)"),
  isComplete: z.boolean().describe("Every usage is in usages, and no reference of the name was left unattributed"),
  unattributed: z
    .number()
    .int()
    .optional()
    .describe("References of the name resolved to no definition whose qualifier names another owner or none: possible usages, not counted"),
  suggestions: z.array(z.string()).optional().describe("Similar defined names, when nothing matched"),
  message: z.string().optional(),
});

type ReferencesOutput = z.infer<typeof referencesOutput>;

const RESOLUTION_RANK: Record<string, number> = { exact: 0, import: 0, "cross-repo": 0, "name-only": 1 };
const isTestPath = (p: string) => /(^|\/)(tests?|spec|__tests__)\/|_test\.|\.test\.|\.spec\.|(^|\/)test_/.test(p);
/** How a usage ranks: resolved ones first, then unresolved, tests after the rest at each level (lower first). */
const usageRank = (resolution: string | null | undefined, file: string) => (RESOLUTION_RANK[resolution ?? ""] ?? 2) * 2 + Number(isTestPath(file));

export const getSymbolReferencesTool = defineTool({
  name: "get_symbol_references",
  title: "Usages of a symbol",
  description:
    "Concrete usage evidence for a symbol: how many references it has (usageCount), the top usage snippets (file, line, " +
    "preview, kind of use, how the reference was resolved), where it is defined, and whether the list is complete. " +
    "confidence is 'syntactic': references come from parsing and resolving names statically, not from running code. " +
    "Use it before changing a function's signature or removing a class.",
  input: referencesInput,
  output: referencesOutput,
  annotations: READ_ONLY,
  profiles: ["codebase-context"],
  sharedStore: "reads",
  needsIndex: true,
  heavy: true,
  cli: { command: ["refs"], positionals: ["symbol"], summary: "usages of a symbol: cortex refs <symbol> [--limit n] (also: --symbol <name>)" },
  example: { symbol: "UserService", limit: 10 },
  async handler(args, ctx): Promise<ReferencesOutput> {
    const engine = await ctx.session.symbols();
    const q = { name: args.symbol };
    const defs = await engine.definitions(q);
    // every usage counts, but only the shown ones need the definition they are written in (RefSite)
    let unattributed = 0;
    const refs = await engine.referenceSites(q, defs, (n) => (unattributed = n));
    const ranked = [...refs].sort((a, b) => usageRank(a.resolution, a.file) - usageRank(b.resolution, b.file));
    const shown = ranked.slice(0, args.limit);
    const [lines, enclosing] = await Promise.all([
      new SourceLines(engine.store).load(shown.map((r) => r.file)),
      engine.store.enclosingOf(shown.map((r) => r.id)),
    ]);
    const usages = shown.map((r) => {
      const w = lines.window(r.file, r.line, 1);
      const inside = enclosing.get(r.id);
      return {
        file: r.file,
        line: r.line,
        column: r.column,
        preview: w.lines.join("\n").trim(),
        kind: r.kind,
        resolution: r.resolution ?? "unresolved",
        ...(inside ? { enclosing: inside } : {}),
      };
    });
    // what changed on disk since indexing is said, as every tool returning stored lines says it
    const stale = await staleFiles(engine.store, ctx.session.root, [...usages.map((u) => u.file), ...defs.map((d) => d.file)]);
    const out: ReferencesOutput = {
      status: "success",
      symbol: args.symbol,
      usageCount: refs.length,
      usages: usages.map((u) => (stale.has(u.file) ? { ...u, stale: true as const } : u)),
      definitions: defs.map((d) => ({ fqn: d.qname, kind: d.kind, file: d.file, line: d.line, ...(stale.has(d.file) ? { stale: true as const } : {}) })),
      confidence: "syntactic",
      // complete when every usage found is shown and no reference of the name is left unattributed
      isComplete: usages.length === refs.length && unattributed === 0,
    };
    if (unattributed > 0) {
      const last = nameParts(args.symbol).pop();
      out.unattributed = unattributed;
      out.message = `${unattributed} more reference${unattributed === 1 ? "" : "s"} named ${last} could not be tied to a definition (a receiver of unknown type) and may be usages too: find_symbol_occurrences {"symbol_name":"${last}"} lists them`;
    }
    if (defs.length === 0 && refs.length === 0) {
      const suggestions = await engine.suggestions(args.symbol);
      out.suggestions = suggestions;
      out.message = `no definition or reference of '${args.symbol}'${suggestions.length ? `; similar names: ${suggestions.join(", ")}` : ""}`;
    }
    return out;
  },
  rows: (r) => r.usages,
  render(r) {
    if (r.usageCount === 0 && r.definitions.length === 0) return r.message ?? `no usages of ${r.symbol}`;
    const out = [
      `${r.symbol}: ${r.usageCount} usage${r.usageCount === 1 ? "" : "s"}${r.usages.length < r.usageCount ? ` (top ${r.usages.length} shown)` : ""}`,
    ];
    for (const d of r.definitions) out.push(`  defined ${d.fqn} (${d.kind}) at ${d.file}:${d.line}${d.stale ? "  STALE" : ""}`);
    if (r.unattributed && r.message) out.push(`  ${r.message}`);
    for (const u of r.usages)
      out.push(
        "",
        `${u.file}:${u.line}:${u.column}  ${u.kind} (${u.resolution})${u.enclosing ? ` in ${u.enclosing}` : ""}${u.stale ? "  STALE" : ""}`,
        ...u.preview.split("\n").map((l) => "    " + l),
      );
    return out.join("\n");
  },
});
