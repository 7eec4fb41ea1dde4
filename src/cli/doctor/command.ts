/**
 * `cortex doctor [--root <path>] [--json] [--fetch]`: the installation's health in one page: runtime, executable and
 * version, this project's index and every other one kept, the embedding model (and what search loses
 * without it), ast-grep, and the MCP clients' configurations. Each problem comes with the command that
 * fixes it. Exits 0 when nothing is wrong, 1 when a problem is reported (warnings included; notes, what is
 * normal on a fresh install such as a model not downloaded yet, are not problems), 2 on an error.
 * `--fetch` first downloads what is fetched on first use (ast-grep, the embedding model, the reranker's
 * where the project turns it on), so that the fix of those notes is a command that succeeds.
 */
import { resolve } from "node:path";
import { CortexError, errorMessage } from "../../core/errors.ts";
import { loadConfig, type CortexConfig } from "../../core/config.ts";
import { canonicalRoot, cortexHome } from "../../core/paths.ts";
import { createEmbeddingProvider } from "../../embed/provider.ts";
import { createCrossEncoder } from "../../embed/rerank/cross-encoder.ts";
import { resolveAstGrep } from "../../engines/structural/install.ts";
import { printJson, printText } from "../output.ts";
import { currentClientEnv } from "../setup/clients.ts";
import { runChecks } from "./checks.ts";

export const DOCTOR_HELP = `cortex doctor [--root <path>] [--json] [--fetch]

  Check cortex's installation: runtime, executable and version, $CORTEX_HOME, the index of this project
  (or --root) and every other index kept in $CORTEX_HOME, the embedding model (loaded to see that it
  works), ast-grep, and which MCP clients are configured. Each problem is printed with the command that
  fixes it; notes are what is normal on a fresh install (fetched on first use).
  --fetch  first download ast-grep, the embedding model and (when search.rerank.enabled) the reranker
           model if they are not there yet
  Exit status: 0 nothing wrong (notes aside), 1 problems reported, 2 an error.`;

type Report = Awaited<ReturnType<typeof runChecks>>;

function render(r: Report): string {
  const out: string[] = [];
  const rt = r.runtime;
  out.push(`cortex ${rt.cortex_version} on bun ${rt.bun_version} (${rt.platform})`);
  out.push(
    `  executable: ${rt.executable} (${rt.origin === "source" ? "bun running cortex from source" : rt.origin === "npx" ? "the compiled executable, run by npx from its cache" : "the compiled executable"})`,
  );
  out.push(`  MCP command: ${rt.mcp_command.join(" ")}`);
  out.push(`  CORTEX_HOME: ${rt.cortex_home} (${r.home.state})`);
  out.push("");
  const p = r.project as {
    root: string;
    state: string;
    files?: number;
    last_run?: string;
    parse_tier?: string;
    changed_since_index?: { modified: number; added: number; deleted: number };
  };
  out.push(
    `Project ${p.root}: ${p.state === "ready" ? `indexed, ${p.files} files, last run ${p.last_run ?? "unknown"}, parse tier ${p.parse_tier}` : p.state === "missing" ? "no index" : "index unreadable"}`,
  );
  if (p.changed_since_index)
    out.push(
      `  changed on disk since: ${p.changed_since_index.modified} modified, ${p.changed_since_index.added} added, ${p.changed_since_index.deleted} deleted`,
    );
  if (r.indexes.length > 0) {
    out.push(`Indexes kept (${r.indexes.length}):`);
    for (const i of r.indexes)
      out.push(
        `  ${(i.root || "?").padEnd(48)} ${i.error ? "unreadable" : `${i.files} files`}${i.last_run ? `, ${i.last_run}` : ""}${i.root_exists ? "" : " (folder gone)"}`,
      );
  }
  out.push("");
  const e = r.embeddings as {
    provider: string;
    model?: string;
    present?: boolean;
    loads?: boolean;
    folder?: string;
    setting?: string;
    error?: string;
    api_key_set?: boolean;
    note?: string;
  };
  if (e.provider === "local") {
    const state = e.error
      ? e.present
        ? "does not load"
        : "misconfigured"
      : !e.present
        ? e.setting
          ? "incomplete"
          : "not downloaded"
        : e.loads
          ? "present, loads"
          : "present";
    // a folder named by a setting is the model, whatever the model's name says
    out.push(
      e.setting ? `Embeddings: the model in ${e.folder ?? "?"} (${e.setting}): ${state}` : `Embeddings: ${e.model} ${state}${e.folder ? ` (${e.folder})` : ""}`,
    );
  } else if (e.provider === "openai")
    out.push(`Embeddings: ${e.model} from an OpenAI-compatible server (API key variable ${e.api_key_set ? "set" : "not set"})`);
  else out.push(`Embeddings: ${e.provider}${e.note ? ` (${e.note})` : ""}`);
  const rr = r.reranker as { enabled: boolean; model?: string; present?: boolean; folder?: string; error?: string };
  if (!rr.enabled) out.push("Reranker: off (search.rerank.enabled)");
  else out.push(`Reranker: ${rr.model} ${rr.present ? `present (${rr.folder})` : rr.error ? "misconfigured" : "not downloaded (downloads on first search)"}`);
  if (r.shared_store) {
    const s = r.shared_store;
    out.push(`Shared store: ${s.url} ${"server_version" in s ? `PostgreSQL ${s.server_version}, ${s.repos} repositories, ${s.vectors}` : s.state}`);
  }
  const a = r.ast_grep as { cached: boolean; path?: string; version?: string; source?: string };
  out.push(
    `ast-grep: ${a.cached ? `${a.version ?? "present"} at ${a.path}${a.source === "env" ? " (CORTEX_AST_GREP)" : ""}` : "not cached (downloaded on first use)"}`,
  );
  out.push("");
  out.push("MCP clients:");
  for (const c of r.clients)
    out.push(
      `  ${c.name.padEnd(15)} ${(c.error ? "unreadable" : c.configured ? "configured" : c.exists ? "not configured" : "no config file").padEnd(15)} ${c.config_path}`,
    );
  const unconfigured = r.clients.filter((c) => c.exists && !c.configured && !c.error);
  if (unconfigured.length > 0) out.push(`  add cortex to one: ${unconfigured.map((c) => `cortex setup ${c.client} --write`).join("; ")}`);
  out.push("");
  const real = r.problems.filter((x) => x.severity !== "note").length;
  if (r.problems.length === 0) out.push("No problems found.");
  else {
    const notes = r.problems.length - real;
    out.push(
      real === 0
        ? `No problems found; ${notes} note${notes === 1 ? "" : "s"} (normal on a fresh install):`
        : `${real} problem${real === 1 ? "" : "s"}${notes > 0 ? ` and ${notes} note${notes === 1 ? "" : "s"}` : ""}:`,
    );
    for (const pr of r.problems) out.push(`  ${pr.severity.padEnd(7)} ${pr.message}`, `          fix: ${pr.fix}`);
  }
  return out.join("\n");
}

export async function runDoctorCommand(argv: string[]): Promise<number> {
  let json = false;
  let fetch = false;
  let root = process.cwd();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--json") json = true;
    else if (a === "--fetch") fetch = true;
    else if (a === "--root" || a.startsWith("--root=")) {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      if (!v) throw new CortexError("INVALID_INPUT", "--root needs a path");
      root = v;
    } else if (a === "--help" || a === "-h") {
      printText(DOCTOR_HELP);
      return 0;
    } else throw new CortexError("INVALID_INPUT", `${a.startsWith("-") ? "unknown option" : "unexpected argument:"} ${a} (see cortex doctor --help)`);
  }
  if (fetch) await fetchFirstUse(resolve(root));
  const report = await runChecks(resolve(root), currentClientEnv());
  json ? printJson(report) : printText(render(report));
  return report.ok ? 0 : 1;
}

/**
 * Downloads what is otherwise fetched on first use: ast-grep (verified against its pinned hash), the
 * local embedding model and the reranker's (when enabled). A failure is reported on stderr and by the
 * checks that follow (with its fix).
 */
async function fetchFirstUse(root: string): Promise<void> {
  try {
    const bin = await resolveAstGrep();
    process.stderr.write(`ast-grep ${bin.version}: ${bin.path}\n`);
  } catch (e) {
    process.stderr.write(`ast-grep not fetched: ${errorMessage(e)}\n`);
  }
  let config: CortexConfig;
  try {
    config = loadConfig(canonicalRoot(root));
  } catch {
    return; // reported by the checks
  }
  if (config.embeddings.provider === "local" && config.embeddings.model_path === undefined)
    await fetchModel("embedding model", createEmbeddingProvider(config.embeddings, { home: cortexHome(), root }));
  // the reranker where the project turns it on (search.rerank.enabled), unless a folder holds it
  const reranker = config.search.rerank.model_path === undefined ? createCrossEncoder(config.search.rerank, { home: cortexHome(), root }) : undefined;
  if (reranker) await fetchModel("reranker model", reranker);
}

/** Loads a model (downloading it when it is not there), saying so on stderr; a failure is said, not thrown. */
async function fetchModel(what: string, model: { model: string; ready(): Promise<void>; close(): unknown }): Promise<void> {
  try {
    process.stderr.write(`${what} ${model.model}: fetching…\n`);
    await model.ready();
    process.stderr.write(`${what} ${model.model}: ready\n`);
  } catch (e) {
    process.stderr.write(`${what} not fetched: ${errorMessage(e)}\n`);
  } finally {
    await model.close();
  }
}
