/**
 * The MCP server: tools from the registry, the codebase://context resource, logging and progress
 * notifications. Transport-agnostic: stdio and Streamable HTTP connect to what createMcpServer returns.
 * A failing tool is a result (isError) whose text names the problem; an unknown tool name is a protocol
 * error. Nothing but protocol messages reaches the transport.
 */
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

const DEFAULT_DEADLINE_MS = 60_000;

export interface McpServerOptions {
  session: Session;
  tools: ToolDefinition[];
  /** Progress of a background index build, for `indexing_required` answers. */
  indexProgress?: () => { done: number; total: number } | undefined;
  /** Where heavy tools run (a long-lived server's reader thread); on the session's own thread when absent. */
  reader?: ReaderThread;
}

const INSTRUCTIONS = `cortex answers questions about this codebase. Pick the tool by the question:
meaning or concepts → cortex_search; an exact identifier, string or boolean keyword query → cortex_exact;
a regular expression → search_text_pattern; a code structure (AST pattern) → cortex_pattern; who defines,
calls, imports or depends on something → find_symbol_occurrences / cortex_graph; counts and sizes →
cortex_files; before changing code → search_codebase with intent edit (is the evidence complete?). Paths are relative to the project root. Results carry 'stale' when a file changed after
indexing and 'truncated' when cut to the output budget (raise max_tokens or narrow the query).`;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const s = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete s.$schema;
  return s;
}

function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

export function createMcpServer(opts: McpServerOptions): Server {
  const server = new Server(
    { name: "cortex", version: VERSION, title: "cortex code context" },
    { capabilities: { tools: {}, resources: {}, logging: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(opts.tools.map((t) => [t.name, t]));
  // JSON schemas are derived once, on the first tools/list rather than here: deriving them for every tool
  // takes tens of milliseconds, and `initialize` is answered before anything else
  let listing: ReturnType<typeof describe>[] | undefined;
  const describe = (t: ToolDefinition) => {
    const out = exposedOutput(t);
    return {
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: jsonSchema(exposedInput(t), "input") as { type: "object"; [k: string]: unknown },
      ...(out ? { outputSchema: jsonSchema(out, "output") as { type: "object"; [k: string]: unknown } } : {}),
      annotations: { title: t.title, ...t.annotations },
    };
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (listing ??= opts.tools.map(describe)) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${request.params.name}'`);
    const controller = new AbortController();
    const onAbort = () => controller.abort(extra.signal.reason);
    extra.signal.addEventListener("abort", onAbort);
    const timer = setTimeout(() => controller.abort(new Error("deadline")), DEFAULT_DEADLINE_MS);
    const progressToken = request.params._meta?.progressToken;
    try {
      const call = {
        signal: controller.signal,
        deadline: Date.now() + DEFAULT_DEADLINE_MS,
        progress:
          progressToken === undefined
            ? undefined
            : (done: number, total: number, message?: string) => {
                void extra
                  .sendNotification({ method: "notifications/progress", params: { progressToken, progress: done, total, ...(message ? { message } : {}) } })
                  .catch(() => {});
              },
      };
      // a missing index is answered here, where the indexer's progress is known
      const offThread = opts.reader !== undefined && tool.heavy === true && opts.session.reader() !== undefined;
      const args = request.params.arguments ?? {};
      const result = offThread ? await opts.reader!.call(tool, args, call) : await invokeTool(tool, args, { session: opts.session, ...call });
      const text = JSON.stringify(result);
      const structured = tool.output && result && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
      return { content: [{ type: "text", text }], ...(structured ? { structuredContent: structured } : {}) };
    } catch (e) {
      if (isCortexError(e)) {
        if (e.code === "INDEX_MISSING") {
          const p = opts.indexProgress?.();
          const progress = p ? ` (${p.done}/${p.total} files parsed)` : "";
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
    return { contents: [{ uri: CONTEXT_URI, mimeType: "text/markdown", text: await contextResource(opts.session, opts.indexProgress?.()) }] };
  });

  return server;
}
