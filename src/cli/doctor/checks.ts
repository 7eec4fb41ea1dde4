/**
 * What `cortex doctor` looks at, each as data: the runtime, the indexes (this project's in detail, every
 * other one cortex keeps by the folder it belongs to), the embedding model, ast-grep and the MCP clients'
 * configurations. Every problem carries the command that fixes it. Nothing here prints a secret: client
 * entries are reported by command and arguments only, an API key by whether its variable is set.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
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
import { createEmbeddingProvider } from "../../embed/provider.ts";
import { locateModel } from "../../embed/local/model-files.ts";
import { locateCrossEncoder } from "../../embed/rerank/cross-encoder.ts";
import { AST_GREP_VERSION, currentRelease, manualInstallHint } from "../../engines/structural/release.ts";
import { versionOf } from "../../engines/structural/install.ts";
import { CLIENTS, type ClientEnv } from "../setup/clients.ts";
import { readClientConfig } from "../setup/config-file.ts";
import { cortexServerCommand } from "../setup/server-command.ts";

export interface Problem {
  area: "runtime" | "home" | "index" | "embeddings" | "reranker" | "ast-grep" | "client" | "store";
  /**
   * error: something does not work; warning: works, with less than it could; note: normal on a fresh
   * install (a model or ast-grep not fetched yet: each is fetched on first use), so it does not fail doctor.
   */
  severity: "error" | "warning" | "note";
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
      severity: "note",
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
export function keptIndexes(problems: Problem[], reported: ReadonlySet<string> = new Set()): KeptIndex[] {
  const cache = homePaths.cache();
  if (!existsSync(cache) || !statSync(cache).isDirectory()) return [];
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
      // the project's own index: already reported, with the command that rebuilds it
      if (reported.has(folder)) continue;
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

/** How the embedding settings were given, for messages and fixes: the environment overrides the config file. */
function embeddingSettings(root: string) {
  const env = process.env;
  const config = join(root, ".cortex", "config.yml");
  const fromEnv = (name: string) => env[name] !== undefined && env[name] !== "";
  return {
    /** The model folder's setting (CORTEX_EMBEDDINGS_MODEL_PATH or embeddings.model_path) and how to change it. */
    path: fromEnv("CORTEX_EMBEDDINGS_MODEL_PATH")
      ? { name: "CORTEX_EMBEDDINGS_MODEL_PATH", change: "unset CORTEX_EMBEDDINGS_MODEL_PATH or point it at a folder holding the model" }
      : {
          name: "embeddings.model_path",
          change: `correct embeddings.model_path in ${config} (a folder holding the model), or remove it to use the downloaded model`,
        },
    model: fromEnv("CORTEX_EMBEDDINGS_MODEL")
      ? { name: "CORTEX_EMBEDDINGS_MODEL", change: "unset CORTEX_EMBEDDINGS_MODEL or set it to a Hugging Face model id" }
      : { name: "embeddings.model", change: `correct embeddings.model in ${config} (a Hugging Face model id such as Xenova/bge-small-en-v1.5)` },
  };
}

/** How long doctor waits for the embedding model to load (the tiny test model: well under a second). */
const MODEL_LOAD_WAIT_MS = 60_000;

/**
 * Loads the model from its files (offline: doctor never downloads) and returns why it cannot, or undefined:
 * files that are all there may still be damaged (a truncated download, a partial copy).
 */
async function loadProblem(e: CortexConfig["embeddings"], root: string): Promise<string | undefined> {
  const provider = createEmbeddingProvider(e, { home: cortexHome(), root, offline: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const outcome = await Promise.race([
      provider.ready().then(
        () => undefined,
        (err: unknown) => errorMessage(err),
      ),
      new Promise<string>((r) => (timer = setTimeout(() => r(`it did not load within ${MODEL_LOAD_WAIT_MS / 1000} s`), MODEL_LOAD_WAIT_MS))),
    ]);
    return outcome?.replace(/^embeddings unavailable: /, "");
  } finally {
    clearTimeout(timer);
    await provider.close();
  }
}

export async function embeddingsInfo(root: string, config: CortexConfig | undefined, problems: Problem[], options: { load?: boolean } = {}) {
  if (!config) return { provider: "unknown" };
  const e = config.embeddings;
  if (e.provider === "none") return { provider: "none", note: `embeddings are switched off in .cortex/config.yml: ${WITHOUT_EMBEDDINGS}` };
  if (e.provider === "openai") {
    const keySet = Boolean(process.env[e.api_key_env]);
    return { provider: "openai", model: e.model, url: e.url ?? null, api_key_env: e.api_key_env, api_key_set: keySet };
  }
  const spec = modelSpec(e.model);
  const settings = embeddingSettings(root);
  const offline = process.env.CORTEX_OFFLINE === "1";
  // a folder named by a setting is the model, whatever embeddings.model says (that names only its use)
  const setting = e.model_path !== undefined ? settings.path.name : undefined;
  try {
    const loc = locateModel(spec, {
      modelsDir: homePaths.models(),
      ...(e.model_path !== undefined ? { modelPath: e.model_path, setting: settings.path.name } : {}),
      root,
    });
    const present = loc.missing.length === 0;
    const base = { provider: "local", model: e.model, folder: loc.dir, ...(setting ? { setting } : {}) };
    if (!present) {
      const missing = `missing ${loc.missing.join(", ")}`;
      if (loc.fromConfig) {
        problems.push({
          area: "embeddings",
          severity: "error",
          message: `the model folder ${loc.dir} (${setting}) is incomplete (${missing}): ${WITHOUT_EMBEDDINGS}`,
          fix: settings.path.change,
        });
      } else if (offline) {
        problems.push({
          area: "embeddings",
          severity: "warning",
          message: `the embedding model ${e.model} is not in ${loc.dir} (${missing}) and CORTEX_OFFLINE=1 forbids the download: ${WITHOUT_EMBEDDINGS}`,
          fix: `unset CORTEX_OFFLINE, then cortex doctor --fetch; or set CORTEX_EMBEDDINGS_MODEL_PATH to a folder holding the model`,
        });
      } else {
        // normal on a fresh install: the first search (or index --embed) downloads it
        problems.push({
          area: "embeddings",
          severity: "note",
          message: `the embedding model ${e.model} is not downloaded yet (${loc.dir}): the first search downloads it; until then ${WITHOUT_EMBEDDINGS}`,
          fix: "cortex doctor --fetch (downloads it now)",
        });
      }
      return { ...base, present, missing: loc.missing, without_it: WITHOUT_EMBEDDINGS };
    }
    if (options.load !== false) {
      const why = await loadProblem(e, root);
      if (why) {
        problems.push({
          area: "embeddings",
          severity: "error",
          message: `the embedding model does not load: ${why}. Meanwhile ${WITHOUT_EMBEDDINGS}`,
          fix: loc.fromConfig
            ? `copy the model into ${q(loc.dir)} again (its files are damaged), or ${settings.path.change}`
            : `rm -rf ${q(loc.dir)}, then cortex doctor --fetch (downloads it again)`,
        });
        return { ...base, present, loads: false, error: why };
      }
      return { ...base, present, loads: true };
    }
    return { ...base, present };
  } catch (err) {
    const message = errorMessage(err);
    const bad = /model_path|MODEL_PATH/.test(message) ? settings.path : settings.model;
    problems.push({ area: "embeddings", severity: "error", message, fix: bad.change });
    const folder = e.model_path === undefined ? undefined : isAbsolute(e.model_path) ? e.model_path : resolve(root, e.model_path);
    return { provider: "local", model: e.model, ...(setting ? { setting } : {}), ...(folder ? { folder } : {}), present: false, error: message };
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
    const offline = process.env.CORTEX_OFFLINE === "1";
    if (!present) {
      problems.push({
        area: "reranker",
        // normal on a fresh install: the first search downloads it
        severity: offline || loc.fromConfig ? "warning" : "note",
        message: `the reranker model ${r.model} is not in ${loc.dir} (missing ${loc.missing.join(", ")})${offline ? " and CORTEX_OFFLINE=1 forbids the download" : ""}: ${WITHOUT_RERANKER}`,
        fix: offline
          ? "unset CORTEX_OFFLINE, then cortex doctor --fetch; or set search.rerank.model_path to a folder holding the model"
          : loc.fromConfig
            ? "put the model's files in search.rerank.model_path, or remove the setting to download the default model"
            : `cortex doctor --fetch --root ${q(root)} (downloads it now; a search would on first use)`,
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
        fix: `unset CORTEX_AST_GREP (cortex then fetches ast-grep ${AST_GREP_VERSION} itself) or point it at an ast-grep ${AST_GREP_VERSION} binary`,
      });
    } else {
      const offline = process.env.CORTEX_OFFLINE === "1";
      problems.push({
        area: "ast-grep",
        // normal on a fresh install: the first cortex pattern fetches it (unless offline)
        severity: offline ? "warning" : "note",
        message: `ast-grep ${AST_GREP_VERSION} is not cached in ${path}: the first cortex pattern downloads it from the npm registry${offline ? ", which CORTEX_OFFLINE forbids" : ""}`,
        fix: offline
          ? `unset CORTEX_OFFLINE, then cortex doctor --fetch; or: ${manualInstallHint()}`
          : `cortex doctor --fetch (downloads and verifies it now), or: ${manualInstallHint()}`,
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
        fix: source === "env" ? `unset CORTEX_AST_GREP or point it at an ast-grep ${AST_GREP_VERSION} binary` : `rm ${q(path)}, then cortex doctor --fetch`,
      });
    return { cached: true, path, source, version };
  } catch (e) {
    problems.push({
      area: "ast-grep",
      severity: "error",
      message: `${path} does not run: ${errorMessage(e)}`,
      fix: source === "env" ? `unset CORTEX_AST_GREP or point it at an ast-grep ${AST_GREP_VERSION} binary` : `rm ${q(path)}, then cortex doctor --fetch`,
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

/**
 * $CORTEX_HOME: indexes, models, ast-grep and vector caches are kept there, so it must be a folder cortex
 * can write (or create). Checked by writing a file, since permission bits do not bind every user (root).
 */
export function homeInfo(problems: Problem[]) {
  const home = cortexHome();
  const fromEnv = process.env.CORTEX_HOME !== undefined && process.env.CORTEX_HOME !== "";
  const fix = (what: string) => (fromEnv ? `${what}, or set CORTEX_HOME to a writable folder (or unset it)` : what);
  if (existsSync(home)) {
    if (!statSync(home).isDirectory()) {
      problems.push({
        area: "home",
        severity: "error",
        message: `CORTEX_HOME ${home} is a file, not a folder: cortex cannot keep indexes, models or caches there; every command that needs one fails`,
        fix: fix(`move the file ${q(home)} away`),
      });
      return { path: home, state: "not a folder" };
    }
    const probe = join(home, `.doctor-${process.pid}`);
    try {
      writeFileSync(probe, "");
      rmSync(probe, { force: true });
      return { path: home, state: "writable" };
    } catch (e) {
      problems.push({
        area: "home",
        severity: "error",
        message: `CORTEX_HOME ${home} is not writable (${errorMessage(e)}): cortex cannot build indexes or keep models there`,
        fix: fix(`chmod u+w ${q(home)} (as its owner)`),
      });
      return { path: home, state: "not writable", error: errorMessage(e) };
    }
  }
  // not there yet: it is created on first use, if its nearest existing parent is a writable folder
  let parent = dirname(home);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  let why: string | undefined;
  if (!statSync(parent).isDirectory()) why = `${parent} is a file, not a folder`;
  else {
    try {
      accessSync(parent, constants.W_OK);
    } catch {
      why = `${parent} is not writable`;
    }
  }
  if (why) {
    problems.push({
      area: "home",
      severity: "error",
      message: `CORTEX_HOME ${home} cannot be created: ${why}`,
      fix: fix(`make ${q(parent)} a writable folder`),
    });
    return { path: home, state: "cannot be created", error: why };
  }
  return { path: home, state: "created on first use" };
}

export async function runChecks(rootArg: string, env: ClientEnv, options: { loadModel?: boolean } = {}) {
  const problems: Problem[] = [];
  const runtime = runtimeInfo();
  const home = homeInfo(problems);
  let root = rootArg;
  let config: CortexConfig | undefined;
  if (!existsSync(rootArg) || !statSync(rootArg).isDirectory()) {
    problems.push({
      area: "runtime",
      severity: "error",
      message: `${rootArg} ${existsSync(rootArg) ? "is a file, not a folder" : "does not exist"}: there is no project to check`,
      fix: "give --root an existing project folder (or run cortex doctor inside the project)",
    });
  } else {
    try {
      root = canonicalRoot(rootArg);
      config = loadConfig(root);
    } catch (e) {
      const message = errorMessage(e);
      const variable = /^(CORTEX_[A-Z_]+)/.exec(message)?.[1];
      problems.push({
        area: "runtime",
        severity: "error",
        message,
        fix: variable ? `correct or unset ${variable}` : `correct ${join(root, ".cortex", "config.yml")}`,
      });
    }
  }
  const project = config ? await projectIndex(root, config, problems) : { root, state: "unreadable" as const };
  // the project's own index, when it cannot be read, is reported once: above, with the command that rebuilds it
  const indexes = keptIndexes(problems, project.state === "unreadable" ? new Set([indexLocation(root).dir]) : new Set());
  const embeddings = await embeddingsInfo(root, config, problems, { load: options.loadModel !== false });
  const reranker = rerankerInfo(root, config, problems);
  const astGrep = await astGrepInfo(problems);
  const clients = clientReports(env, problems);
  // the PostgreSQL driver is loaded only when a shared store is configured
  const sharedStore = process.env.CORTEX_DATABASE_URL ? await (await import("./shared-store.ts")).sharedStoreInfo(process.env, problems) : undefined;
  return {
    // notes (things normal on a fresh install, fetched on first use) do not count against it
    ok: !problems.some((p) => p.severity !== "note"),
    runtime,
    home,
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
