/**
 * What `cortex doctor` looks at, each as data: the runtime, the indexes (this project's in detail, every
 * other one cortex keeps by the folder it belongs to), the embedding model, ast-grep and the MCP clients'
 * configurations. Every problem carries the command that fixes it. Nothing here prints a secret: client
 * entries are reported by command and arguments only, an API key by whether its variable is set.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { VERSION } from "../../core/version.ts";
import { cortexHome, homePaths, canonicalRoot } from "../../core/paths.ts";
import { loadConfig, type CortexConfig } from "../../core/config.ts";
import { errorMessage } from "../../core/errors.ts";
import { indexLocation } from "../../store/location.ts";
import { IndexStore } from "../../store/index-store.ts";
import { openIndexReader } from "../../store/open-reader.ts";
import type { IndexReader } from "../../store/contract.ts";
import { indexStatus } from "../../indexer/status.ts";
import { modelSpec } from "../../embed/models.ts";
import { locateModel } from "../../embed/local/model-files.ts";
import { locateCrossEncoder } from "../../embed/rerank/cross-encoder.ts";
import { AST_GREP_VERSION, currentRelease, manualInstallHint } from "../../engines/structural/release.ts";
import { versionOf } from "../../engines/structural/install.ts";
import { CLIENTS, type ClientEnv } from "../setup/clients.ts";
import { readClientConfig } from "../setup/config-file.ts";
import { cortexServerCommand } from "../setup/server-command.ts";

export interface Problem {
  area: "runtime" | "index" | "embeddings" | "reranker" | "ast-grep" | "client" | "store";
  /** error: something does not work; warning: works, with less than it could. */
  severity: "error" | "warning";
  message: string;
  /** The command (or step) that fixes it. */
  fix: string;
}

const q = (s: string) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function runtimeInfo() {
  const server = cortexServerCommand();
  return {
    cortex_version: VERSION,
    bun_version: Bun.version,
    platform: `${process.platform}-${process.arch}`,
    executable: process.execPath,
    origin: server.origin,
    mcp_command: [server.command, ...server.args],
    cortex_home: cortexHome(),
  };
}

export interface ProjectIndex {
  root: string;
  state: "ready" | "missing" | "unreadable";
  files?: number;
  last_run?: string;
  branch?: string;
  parse_tier?: string;
  changed_since_index?: { modified: number; added: number; deleted: number };
  error?: string;
}

/** The project's index in detail: state, size, the parse tier, and what changed on disk since. */
export async function projectIndex(root: string, config: CortexConfig | undefined, problems: Problem[]): Promise<ProjectIndex> {
  const location = indexLocation(root);
  const current = location.current();
  if (!current) {
    problems.push({
      area: "index",
      severity: "warning",
      message: `${root} has no index yet (the first query builds one, and waits for it)`,
      fix: `cortex index ${q(root)}`,
    });
    return { root, state: "missing" };
  }
  let store: IndexReader | undefined;
  try {
    store = openIndexReader(current);
    const s = await indexStatus(root, location, store, config ?? loadConfig(root), false);
    const out: ProjectIndex = { root, state: "ready" };
    if (s.files !== undefined) out.files = s.files;
    if (s.last_run) out.last_run = s.last_run;
    if (s.branch) out.branch = s.branch;
    const tier = await store.parseTierState();
    out.parse_tier = tier ? `${tier.parsed} of ${tier.total} files parsed${tier.finishing ? " (finishing)" : ""}` : "complete";
    if (tier)
      problems.push({
        area: "index",
        severity: "warning",
        message: `the parse tier of ${root} is incomplete (${out.parse_tier}): symbols, references and search cover part of the project`,
        fix: `cortex index ${q(root)}`,
      });
    const c = s.changed_since_index;
    if (c) {
      out.changed_since_index = { modified: c.modified, added: c.added, deleted: c.deleted };
      const n = c.modified + c.added + c.deleted;
      if (n > 0)
        problems.push({
          area: "index",
          severity: "warning",
          message: `${n} files changed on disk since ${root} was indexed: their hits are marked stale`,
          fix: `cortex index ${q(root)}`,
        });
    }
    return out;
  } catch (e) {
    problems.push({
      area: "index",
      severity: "error",
      message: `the index of ${root} cannot be read: ${errorMessage(e)}`,
      fix: `cortex index --full ${q(root)}`,
    });
    return { root, state: "unreadable", error: errorMessage(e) };
  } finally {
    await store?.close();
  }
}

export interface KeptIndex {
  root: string;
  folder: string;
  files?: number;
  last_run?: string;
  root_exists: boolean;
  error?: string;
}

/** Every index under $CORTEX_HOME/cache, by the folder it was built for. */
export function keptIndexes(problems: Problem[]): KeptIndex[] {
  const cache = homePaths.cache();
  if (!existsSync(cache)) return [];
  const out: KeptIndex[] = [];
  for (const name of readdirSync(cache).sort()) {
    const folder = join(cache, name);
    if (!statSync(folder).isDirectory() || !existsSync(join(folder, "current"))) continue;
    let store: IndexStore | undefined;
    try {
      const current = join(folder, readFileSync(join(folder, "current"), "utf8").trim());
      store = IndexStore.open(current, { readonly: true });
      const root = store.getMeta("root") ?? "";
      const files = Object.values(store.languageCounts()).reduce((a, b) => a + b, 0);
      const k: KeptIndex = { root, folder, files, root_exists: root !== "" && existsSync(root) };
      const lastRun = store.getMeta("last_run");
      if (lastRun) k.last_run = lastRun;
      if (!k.root_exists)
        problems.push({
          area: "index",
          severity: "warning",
          message: `an index is kept for ${root || "an unknown folder"}, which no longer exists`,
          fix: `rm -rf ${q(folder)}`,
        });
      out.push(k);
    } catch (e) {
      out.push({ root: "", folder, root_exists: false, error: errorMessage(e) });
      problems.push({
        area: "index",
        severity: "warning",
        message: `the index in ${folder} cannot be read: ${errorMessage(e)}`,
        fix: `rm -rf ${q(folder)} (then cortex index <its project>)`,
      });
    } finally {
      store?.close();
    }
  }
  return out;
}

/** What semantic search loses without vectors, said once for the human and the JSON output. */
export const WITHOUT_EMBEDDINGS =
  'search ranks by keywords only (BM25): queries worded unlike the code ("where do we retry failed requests") find less; exact, regex, pattern, symbol and statistics tools are unaffected';

export function embeddingsInfo(root: string, config: CortexConfig | undefined, problems: Problem[]) {
  if (!config) return { provider: "unknown" };
  const e = config.embeddings;
  if (e.provider === "none") return { provider: "none", note: `embeddings are switched off in .cortex/config.yml: ${WITHOUT_EMBEDDINGS}` };
  if (e.provider === "openai") {
    const keySet = Boolean(process.env[e.api_key_env]);
    return { provider: "openai", model: e.model, url: e.url ?? null, api_key_env: e.api_key_env, api_key_set: keySet };
  }
  const spec = modelSpec(e.model);
  try {
    const loc = locateModel(spec, { modelsDir: homePaths.models(), ...(e.model_path !== undefined ? { modelPath: e.model_path } : {}), root });
    const present = loc.missing.length === 0;
    if (!present) {
      const offline = process.env.CORTEX_OFFLINE === "1";
      problems.push({
        area: "embeddings",
        severity: "warning",
        message: `the embedding model ${e.model} is not in ${loc.dir} (missing ${loc.missing.join(", ")})${offline ? " and CORTEX_OFFLINE=1 forbids the download" : ""}: ${WITHOUT_EMBEDDINGS}`,
        fix: offline
          ? `unset CORTEX_OFFLINE, then cortex index ${q(root)} --embed (or set embeddings.model_path to a folder holding the model)`
          : `cortex index ${q(root)} --embed`,
      });
    }
    return { provider: "local", model: e.model, folder: loc.dir, present, ...(present ? {} : { missing: loc.missing, without_it: WITHOUT_EMBEDDINGS }) };
  } catch (err) {
    problems.push({
      area: "embeddings",
      severity: "error",
      message: errorMessage(err),
      fix: "correct embeddings.model or embeddings.model_path in .cortex/config.yml",
    });
    return { provider: "local", model: e.model, present: false, error: errorMessage(err) };
  }
}

/** What search loses without the cross-encoder, said once for the human and the JSON output. */
export const WITHOUT_RERANKER =
  "searches keep their first-stage order (keywords, vectors and code structure) when their top results score close together; nothing else changes";

export function rerankerInfo(root: string, config: CortexConfig | undefined, problems: Problem[]) {
  if (!config) return { enabled: false };
  const r = config.search.rerank;
  if (!r.enabled)
    return { enabled: false, model: r.model, note: `off (search.rerank.enabled: false in .cortex/config.yml, or CORTEX_RERANK=0): ${WITHOUT_RERANKER}` };
  try {
    const loc = locateCrossEncoder({ model: r.model, modelsDir: homePaths.models(), ...(r.model_path !== undefined ? { modelPath: r.model_path } : {}), root });
    const present = loc.missing.length === 0;
    if (!present) {
      const offline = process.env.CORTEX_OFFLINE === "1";
      problems.push({
        area: "reranker",
        severity: "warning",
        message: `the reranker model ${r.model} is not in ${loc.dir} (missing ${loc.missing.join(", ")})${offline ? " and CORTEX_OFFLINE=1 forbids the download" : ""}: ${WITHOUT_RERANKER}`,
        fix: offline
          ? "unset CORTEX_OFFLINE and search once (the model downloads on first use), or set search.rerank.model_path to a folder holding the model"
          : loc.fromConfig
            ? "put the model's files in search.rerank.model_path, or remove the setting to download the default model"
            : `search once (cortex search "…" --root ${q(root)}): the model downloads on first use`,
      });
    }
    return { enabled: true, model: r.model, folder: loc.dir, present, ...(present ? {} : { missing: loc.missing, without_it: WITHOUT_RERANKER }) };
  } catch (err) {
    problems.push({
      area: "reranker",
      severity: "error",
      message: errorMessage(err),
      fix: "correct search.rerank.model or search.rerank.model_path in .cortex/config.yml",
    });
    return { enabled: true, model: r.model, present: false, error: errorMessage(err) };
  }
}

export async function astGrepInfo(problems: Problem[]) {
  const fromEnv = process.env.CORTEX_AST_GREP;
  let path: string;
  let source: "env" | "cache";
  if (fromEnv) {
    path = fromEnv;
    source = "env";
  } else {
    try {
      path = join(homePaths.bin(), currentRelease().executable);
    } catch (e) {
      problems.push({ area: "ast-grep", severity: "error", message: errorMessage(e), fix: manualInstallHint() });
      return { cached: false, error: errorMessage(e) };
    }
    source = "cache";
  }
  if (!existsSync(path)) {
    if (source === "env") {
      problems.push({
        area: "ast-grep",
        severity: "error",
        message: `CORTEX_AST_GREP points at ${path}, which does not exist: cortex pattern fails`,
        fix: manualInstallHint(),
      });
    } else {
      problems.push({
        area: "ast-grep",
        severity: "warning",
        message: `ast-grep ${AST_GREP_VERSION} is not cached in ${path}: the first cortex pattern downloads it from the npm registry${process.env.CORTEX_OFFLINE ? ", which CORTEX_OFFLINE forbids" : ""}`,
        fix: `cortex pattern '$X' --lang go --limit 1 (downloads and verifies it), or: ${manualInstallHint()}`,
      });
    }
    return { cached: false, path, source };
  }
  try {
    const version = await versionOf(path);
    if (version !== AST_GREP_VERSION)
      problems.push({
        area: "ast-grep",
        severity: "warning",
        message: `${path} is ast-grep ${version}; cortex is built for ${AST_GREP_VERSION}`,
        fix: source === "env" ? manualInstallHint() : `rm ${q(path)} (cortex pattern then fetches ${AST_GREP_VERSION})`,
      });
    return { cached: true, path, source, version };
  } catch (e) {
    problems.push({
      area: "ast-grep",
      severity: "error",
      message: `${path} does not run: ${errorMessage(e)}`,
      fix: source === "env" ? manualInstallHint() : `rm ${q(path)} (cortex pattern then fetches it again)`,
    });
    return { cached: true, path, source, error: errorMessage(e) };
  }
}

export interface ClientReport {
  client: string;
  name: string;
  config_path: string;
  exists: boolean;
  configured: boolean;
  /** cortex's entry: command and arguments only (an entry's env may hold secrets). */
  command?: string[];
  error?: string;
}

/** Paths in a configured entry that no longer exist (an executable moved, a checkout removed). */
function missingPaths(command: string[]): string[] {
  return command.filter((p, i) => (i === 0 || /\.(ts|js)$/.test(p)) && isAbsolute(p) && !existsSync(p));
}

export function clientReports(env: ClientEnv, problems: Problem[]): ClientReport[] {
  const out: ClientReport[] = [];
  for (const c of CLIENTS) {
    const state = readClientConfig(c, c.configPath(env));
    const r: ClientReport = { client: c.id, name: c.name, config_path: state.path, exists: state.exists, configured: state.entry !== undefined };
    if (state.error) {
      r.error = state.error;
      problems.push({
        area: "client",
        severity: "error",
        message: `${c.name}: ${state.error}`,
        fix: `repair ${state.path} by hand (cortex setup ${c.id} prints cortex's entry)`,
      });
    }
    const entry = state.entry as { command?: unknown; args?: unknown } | undefined;
    if (entry && typeof entry === "object") {
      const command = [typeof entry.command === "string" ? entry.command : "", ...(Array.isArray(entry.args) ? entry.args.map(String) : [])];
      r.command = command;
      const gone = missingPaths(command);
      if (gone.length > 0)
        problems.push({
          area: "client",
          severity: "error",
          message: `${c.name} starts cortex with ${gone.join(", ")}, which does not exist`,
          fix: `cortex setup ${c.id} --write`,
        });
    }
    out.push(r);
  }
  return out;
}

export async function runChecks(rootArg: string, env: ClientEnv) {
  const problems: Problem[] = [];
  const runtime = runtimeInfo();
  let root = rootArg;
  let config: CortexConfig | undefined;
  try {
    root = canonicalRoot(rootArg);
    config = loadConfig(root);
  } catch (e) {
    problems.push({ area: "runtime", severity: "error", message: errorMessage(e), fix: "correct .cortex/config.yml (or the path given with --root)" });
  }
  const project = config ? await projectIndex(root, config, problems) : { root, state: "unreadable" as const };
  const indexes = keptIndexes(problems);
  const embeddings = embeddingsInfo(root, config, problems);
  const reranker = rerankerInfo(root, config, problems);
  const astGrep = await astGrepInfo(problems);
  const clients = clientReports(env, problems);
  // the PostgreSQL driver is loaded only when a shared store is configured
  const sharedStore = process.env.CORTEX_DATABASE_URL ? await (await import("./shared-store.ts")).sharedStoreInfo(process.env, problems) : undefined;
  return {
    ok: !problems.some((p) => p.severity === "error"),
    runtime,
    project,
    indexes,
    embeddings,
    reranker,
    ast_grep: astGrep,
    clients,
    ...(sharedStore ? { shared_store: sharedStore } : {}),
    problems,
  };
}
