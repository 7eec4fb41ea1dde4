/**
 * The MCP server: tools from the registry, the codebase://context resource, logging and progress
 * notifications. Transport-agnostic: stdio and Streamable HTTP connect to what createMcpServer returns.
 * A failing tool is a result (isError) whose text names the problem; an unknown tool name is a protocol
 * error. Nothing but protocol messages reaches the transport.
 */
import { existsSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ToolDefinition } from "../tools/define.ts";
import type { Session } from "../tools/session.ts";
import { exposedInput, exposedOutput, invokeTool } from "../tools/invoke.ts";
import { isCortexError } from "../core/errors.ts";
import { log } from "../core/log.ts";
import { VERSION } from "../core/version.ts";
import { contextResource, CONTEXT_URI } from "./resources.ts";
import type { ReaderThread } from "../tools/reader-thread.ts";
import { repoArgument, type RepoScopes } from "../tools/repo-scope.ts";

const DEFAULT_DEADLINE_MS = 60_000;
/** The longest a call may ask for (cortex_pattern's timeout_ms bound). */
const MAX_DEADLINE_MS = 600_000;

export interface McpServerOptions {
  session: Session;
  tools: ToolDefinition[];
  /** Progress of a background index build, for `indexing_required` answers. */
  indexProgress?: () => { phase?: string; done: number; total: number } | undefined;
  /** Files the live index's watcher saw change since the index caught up with them (see ToolContext). */
  changedOnDisk?: () => readonly string[] | undefined;
  /** Where heavy tools run (a long-lived server's reader thread); on the session's own thread when absent. */
  reader?: ReaderThread;
  /**
   * Serve a shared store's repositories instead of `session`'s project: each call runs on the session of
   * the scope its `repo` names. Tools that cannot read a shared store are left out of the list.
   */
  scopes?: RepoScopes;
}

/** Which tool answers which kind of question, first served alternative first; a line with none served is left out. */
const QUESTION_TOOLS: Array<[string, string[]]> = [
  ["meaning or concepts", ["cortex_search", "search_semantic_concept"]],
  ["an exact identifier, string or boolean keyword query", ["cortex_exact"]],
  ["a regular expression", ["search_text_pattern"]],
  ["a code structure (AST pattern)", ["cortex_pattern"]],
  ["who defines, calls, imports or depends on something", ["find_symbol_occurrences", "get_symbol_references"]],
  ["counts and sizes", ["cortex_files"]],
  ["before changing code", ["search_codebase"]],
];

/** Which served tool answers which kind of question, as the instructions say it. */
function toolPicks(served: ReadonlySet<string>): string {
  const picks = QUESTION_TOOLS.flatMap(([question, names]) => {
    const have = names.filter((n) => served.has(n));
    if (have.length === 0) return [];
    let tools = have[0]!;
    if (question.startsWith("who defines") && served.has("cortex_graph")) tools = `${tools} / cortex_graph`;
    if (question === "before changing code") tools = `${tools} with intent edit (is the evidence complete?)`;
    return [`${question} → ${tools}`];
  });
  return `Pick the tool by the question: ${picks.join("; ")}.`;
}

/** What an agent is told once: the tools it is served, by question, and how results read. */
export function instructionsFor(served: ReadonlySet<string>): string {
  return `cortex answers questions about this codebase. ${toolPicks(served)} Paths are relative to the project root. Results carry 'stale' when a file changed after
indexing and 'truncated' when cut to the output budget (raise max_tokens or narrow the query).`;
}

/**
 * What an agent of a shared-store server is told once, besides each tool's `repo` field. Not the local
 * text: paths are not relative to one project root (with several repositories they are <repo>/<path>),
 * and no hit is ever stale (the store's files are not on this machine to change).
 */
function sharedInstructions(scopes: RepoScopes, served: ReadonlySet<string>): string {
  const dflt = scopes.defaultScope === "all" ? "all of them" : scopes.defaultScope.join(", ");
  return `cortex answers questions about the repositories of a shared store. ${toolPicks(served)}

This server reads a shared store of many repositories, not a working tree. Every tool takes 'repo': a name,
several, or "all" (default: ${dflt}); get_indexing_status lists the repositories. With one repository paths
are relative to its root; with more than one every path is <repo>/<path>, in results and in path filters.
Imports, references and graphs resolve across the repositories of the scope. Results are the repositories'
published generations, never marked 'stale'; they carry 'truncated' when cut to the output budget (raise
max_tokens or narrow the query).`;
}

/** What a tool's description adds on a shared-store server: how its `repo` argument reads. */
const SHARED_NOTE = " On this shared store 'repo' picks the repositories; with several, every path is <repo>/<path>.";

/** The error a local server answers `repo` with (the argument is not listed there, but a client may send it anyway). */
function repoNeedsStore(root: string): string {
  return `invalid arguments: repo: this server reads the index of one project (${root}); choosing repositories needs a shared store: start the server with 'cortex mcp --store postgres://…' or with CORTEX_DATABASE_URL set`;
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const s = singleTypes(z.toJSONSchema(schema, { io, unrepresentable: "any" })) as Record<string, unknown>;
  delete s.$schema;
  return s;
}

/**
 * The schema with every `"type": [a, b]` written as `"anyOf": [{"type": a}, {"type": b}]`: the same
 * meaning, but clients whose schema reader takes one type per node (the Inspector's --strict warns; some
 * model providers reject the tool) read it (cortex_files' `value`, search_text_pattern's groups).
 */
export function singleTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(singleTypes);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = singleTypes(v);
  if (Array.isArray(out.type) && out.type.length > 1 && out.anyOf === undefined) {
    const types = out.type as string[];
    delete out.type;
    out.anyOf = types.map((t) => ({ type: t }));
  } else if (Array.isArray(out.type) && out.type.length === 1) out.type = out.type[0];
  return out;
}

/** tools/call as the SDK's CallToolRequestSchema has it, its params' fields unchecked (see createMcpServer). */
const LOOSE_CALL_TOOL = CallToolRequestSchema.extend({ params: z.looseObject({ name: z.string() }) }) as unknown as typeof CallToolRequestSchema;

function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

export function createMcpServer(opts: McpServerOptions): Server {
  const scopes = opts.scopes;
  // On a shared store only the tools that read it are listed: an agent is not offered what cannot work
  // (a call to one of the others still gets an answer saying why). On a local server `repo` is not
  // listed at all: an argument that can only fail there would cost every agent's context for nothing.
  const listed = scopes ? opts.tools.filter((t) => typeof t.sharedStore !== "object" || !("unavailable" in t.sharedStore)) : opts.tools;
  const served = new Set(listed.map((t) => t.name));
  const server = new Server(
    { name: "cortex", version: VERSION, title: "cortex code context" },
    { capabilities: { tools: {}, resources: {}, logging: {} }, instructions: scopes ? sharedInstructions(scopes, served) : instructionsFor(served) },
  );
  const byName = new Map(opts.tools.map((t) => [t.name, t]));
  // JSON schemas are derived once, on the first tools/list rather than here: deriving them for every tool
  // takes tens of milliseconds, and `initialize` is answered before anything else
  let listing: ReturnType<typeof describe>[] | undefined;
  const describe = (t: ToolDefinition) => {
    const out = exposedOutput(t);
    const input = scopes ? exposedInput(t).extend({ repo: repoArgument.optional() }) : exposedInput(t);
    return {
      name: t.name,
      title: t.title,
      description: scopes ? t.description + SHARED_NOTE : t.description,
      inputSchema: jsonSchema(input, "input") as { type: "object"; [k: string]: unknown },
      ...(out ? { outputSchema: jsonSchema(out, "output") as { type: "object"; [k: string]: unknown } } : {}),
      annotations: { title: t.title, ...t.annotations },
    };
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (listing ??= listed.map(describe)) }));

  // Registered with a schema that takes any arguments: the SDK parses a request with the registered schema
  // before its own tools/call check, so `arguments: []` came back as -32603 and a raw validation dump; the
  // SDK's check then answers it as -32602 "Invalid tools/call request", and the handler sees valid requests only.
  server.setRequestHandler(LOOSE_CALL_TOOL, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${request.params.name}'`);
    const controller = new AbortController();
    const onAbort = () => controller.abort(extra.signal.reason);
    extra.signal.addEventListener("abort", onAbort);
    // a call that asks for more time (cortex_pattern's timeout_ms, up to 10 minutes) gets it, a little over
    // so that the tool's own deadline, which returns what it found marked partial, comes first
    const asked = (request.params.arguments as { timeout_ms?: unknown } | undefined)?.timeout_ms;
    const deadlineMs = typeof asked === "number" && asked > DEFAULT_DEADLINE_MS - 5_000 ? Math.min(asked, MAX_DEADLINE_MS) + 5_000 : DEFAULT_DEADLINE_MS;
    const timer = setTimeout(() => controller.abort(new Error("deadline")), deadlineMs);
    const progressToken = request.params._meta?.progressToken;
    try {
      const changedOnDisk = opts.changedOnDisk?.();
      const call = {
        servedTools: served,
        signal: controller.signal,
        deadline: Date.now() + deadlineMs,
        ...(changedOnDisk ? { changedOnDisk } : {}),
        progress:
          progressToken === undefined
            ? undefined
            : (done: number, total: number, message?: string) => {
                void extra
                  .sendNotification({ method: "notifications/progress", params: { progressToken, progress: done, total, ...(message ? { message } : {}) } })
                  .catch(() => {});
              },
      };
      const args = request.params.arguments ?? {};
      let result: unknown;
      if (scopes) {
        const mode = tool.sharedStore;
        if (typeof mode === "object" && "unavailable" in mode)
          return errorResult(`${tool.name} does not work on this server, which reads a shared store: ${mode.unavailable}`);
        // the store answers over the network: its readers wait on a socket, not on this thread, so no reader thread
        result = await scopes.invoke(tool, args, call);
      } else {
        if ("repo" in args) return errorResult(repoNeedsStore(opts.session.root));
        // a project folder deleted or moved under the server: every tool says so, rather than some
        // answering "no matches" from the index and others stale hits
        if (!existsSync(opts.session.root))
          return errorResult(`the project folder ${opts.session.root} no longer exists (deleted or moved); restart the server on the project's folder`);
        // a missing index is answered here, where the indexer's progress is known
        const offThread = opts.reader !== undefined && tool.heavy === true && opts.session.reader() !== undefined;
        result = offThread ? await opts.reader!.call(tool, args, call) : await invokeTool(tool, args, { session: opts.session, ...call });
      }
      const text = JSON.stringify(result);
      const structured = tool.output && result && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
      // a result that reports a failure in its own shape (status "error", as kit's specification has it)
      // is flagged as a tool error too, as every other tool's failures are
      const failed = tool.failure?.(result as never) !== undefined;
      return { content: [{ type: "text", text }], ...(structured ? { structuredContent: structured } : {}), ...(failed ? { isError: true } : {}) };
    } catch (e) {
      if (isCortexError(e)) {
        if (e.code === "INDEX_MISSING") {
          const p = opts.indexProgress?.();
          const progress = p ? ` (${p.phase ?? "parse"} tier: ${p.done}/${p.total} files)` : "";
          return errorResult(`indexing_required: ${e.message}${progress}`);
        }
        return errorResult(e.code === "INVALID_INPUT" ? `invalid arguments: ${e.message}` : e.message);
      }
      log.error(`tool ${tool.name} failed: ${(e as Error)?.stack ?? e}`);
      return errorResult(`internal error in ${tool.name}: ${(e as Error)?.message ?? String(e)}`);
    } finally {
      clearTimeout(timer);
      extra.signal.removeEventListener("abort", onAbort);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: CONTEXT_URI,
        name: "codebase context",
        title: "Codebase context",
        description: "A compact overview of the project: languages, size, main modules, index state, which tool to use.",
        mimeType: "text/markdown",
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== CONTEXT_URI) throw new McpError(ErrorCode.InvalidParams, `unknown resource '${request.params.uri}'`);
    const text = scopes
      ? await scopes.withSession(undefined, (session) => contextResource(session, served))
      : await contextResource(opts.session, served, opts.indexProgress?.());
    return { contents: [{ uri: CONTEXT_URI, mimeType: "text/markdown", text }] };
  });

  return server;
}
