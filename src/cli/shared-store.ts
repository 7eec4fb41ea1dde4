/**
 * The command line of the shared store (PostgreSQL): `cortex index --repo <name> [path]` builds the
 * local index as always and publishes it as that repository's next generation; `cortex repos` lists
 * what the store holds, `cortex repos remove <name>` removes a repository. The store is `--store postgres://…` or CORTEX_DATABASE_URL; its password is
 * never printed.
 */
import { CortexError, errorMessage } from "../core/errors.ts";
import { parseInput } from "../core/zod-issues.ts";
import { Session, type ToolDefinition } from "../tools/index.ts";
import { exposedInput } from "../tools/invoke.ts";
import { connectPostgres } from "../store/postgres/client.ts";
import { parseRepoScope, RepoScopes } from "../tools/repo-scope.ts";
import { didYouMean, outputMode, parseToolArgs } from "./args.ts";
import { runToolForCli } from "./run-tool.ts";
import { toolHelp } from "./render.ts";
import { indexLocation } from "../store/location.ts";
import { SharedStore } from "../store/postgres/shared-store.ts";
import { maskUrl, storeUrl } from "../store/postgres/url.ts";
import type { PublishedVectors, PublishVectors } from "../store/postgres/vectors.ts";
import type { RepoInfo } from "../store/postgres/repos.ts";
import { printJson, printText } from "./output.ts";
import { indexProgressBar } from "./progress.ts";
import { helpText } from "./render.ts";

interface Parsed {
  positionals: string[];
  values: Map<string, string>;
  flags: Set<string>;
}

function parse(argv: string[], valued: string[], flags: string[]): Parsed {
  const out: Parsed = { positionals: [], values: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) {
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq < 0 ? a : a.slice(0, eq);
    if (valued.includes(name)) {
      const v = eq < 0 ? argv[++i] : a.slice(eq + 1);
      if (v === undefined || v === "") throw new CortexError("INVALID_INPUT", `${name} needs a value`);
      out.values.set(name, v);
    } else if (flags.includes(name)) out.flags.add(name);
    else throw new CortexError("INVALID_INPUT", `unknown option ${name}${didYouMean(name, [...valued, ...flags])} (see cortex help index, cortex help repos)`);
  }
  return out;
}

function requireStore(flag: string | undefined): SharedStore {
  const url = storeUrl(flag);
  if (url === undefined) {
    throw new CortexError("INVALID_INPUT", "no shared store: pass --store postgres://user@host/database or set CORTEX_DATABASE_URL");
  }
  return SharedStore.connect(url);
}

/** `cortex index --repo <name> [--store URL] [--full] [--json] [path]`. */
export async function runIndexRepoCommand(argv: string[]): Promise<number> {
  const { positionals, values, flags } = parse(argv, ["--repo", "--store"], ["--full", "--json", "--help"]);
  if (flags.has("--help")) {
    printText(helpText("index"));
    return 0;
  }
  if (positionals.length > 1) throw new CortexError("INVALID_INPUT", `unexpected argument: ${positionals.slice(1).join(" ")}`);
  const repo = values.get("--repo")!;
  const json = flags.has("--json");
  const store = requireStore(values.get("--store"));
  const bar = indexProgressBar(!json);
  const session = new Session(positionals[0] ?? process.cwd(), { onIndexProgress: (p) => bar.update(p) });
  try {
    const report = await session.index({ full: flags.has("--full") });
    bar.done();
    const path = indexLocation(session.root).current();
    if (path === undefined) throw new CortexError("INDEX_MISSING", `the index of ${session.root} was not written`);
    const vectors = await vectorsToPublish(session, store, json);
    const publishedIndex = await store.publish(repo, path, {
      ...(vectors && "get" in vectors ? { vectors } : {}),
      onWait: () => {
        if (!json) process.stderr.write(`cortex: another indexer is publishing ${repo}; waiting for it\n`);
      },
    });
    const published = vectors && "state" in vectors ? { ...publishedIndex, vectors } : publishedIndex;
    if (json) printJson({ ...published, store: store.maskedUrl, index: report });
    else {
      printText(
        `published ${repo} generation ${published.generation} to ${store.maskedUrl}: ${published.changed} files written, ${published.deleted} removed, ${published.unchanged} unchanged`,
      );
      if (published.vectors) printText(`  vectors: ${vectorsLine(published.vectors)}`);
    }
    return 0;
  } finally {
    bar.done();
    session.close();
    await store.close();
  }
}

/**
 * The chunks' vectors to publish, when embeddings are on and the store can hold them (pgvector): every
 * chunk is embedded first (the local vector cache keeps what was embedded before), so the generation's
 * vectors are complete and readers need none of their own. Without pgvector nothing is embedded here
 * (the answer then says why): each reader keeps its own vector index.
 */
async function vectorsToPublish(session: Session, store: SharedStore, json: boolean): Promise<PublishVectors | PublishedVectors | undefined> {
  let embedder: ReturnType<Session["embedder"]>;
  try {
    embedder = session.embedder();
  } catch (e) {
    return { state: "unavailable", reason: `embeddings are misconfigured (${errorMessage(e)})` };
  }
  if (embedder === undefined) return undefined;
  if (!(await store.holdsVectors())) return { state: "unavailable", reason: "the server has no pgvector extension" };
  const tty = !json && process.stderr.isTTY;
  const state = await session.embedAll((s) => {
    if (tty) process.stderr.write(`\r\x1b[2Kcortex: embeddings ${s}`);
  });
  if (tty) process.stderr.write("\n");
  const dimensions = embedder.cache.dimensions;
  if (state !== "ready" || dimensions === undefined) {
    return { state: "unavailable", reason: `the chunks could not be embedded (embeddings ${state})` };
  }
  return { model: { id: embedder.provider.id, recipe: embedder.provider.recipe }, dimensions, get: (hashes) => embedder.cache.get(hashes) };
}

function vectorsLine(v: PublishedVectors): string {
  if (v.state === "unavailable") return `not stored (${v.reason}); readers keep their own vector index`;
  if (v.state === "incomplete") return `${v.written} written, ${v.missing} chunks without a vector: readers keep their own vector index`;
  return `${v.model} (${v.dimensions} dimensions) in pgvector, ${v.written} written`;
}

/** How long ago, in words (freshness at a glance). */
function age(iso: string | null, now = Date.now()): string {
  if (iso === null) return "never";
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 120) return `${s} s ago`;
  if (s < 7200) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} days ago`;
}

function renderRepos(repos: RepoInfo[], url: string): string {
  if (repos.length === 0) return `no repositories in ${url} yet (publish one with: cortex index --repo <name> <path>)`;
  const rows = repos.map((r) => [
    r.name,
    (r.commit ?? "-").slice(0, 12),
    String(r.generation),
    String(r.files),
    r.indexedAt ?? "-",
    age(r.indexedAt),
    r.vectors.length ? r.vectors.join(",") : "-",
  ]);
  const head = ["repo", "commit", "generation", "files", "indexed at", "freshness", "vectors"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}

/** `cortex repos [--store URL] [--json]`; `cortex repos remove <name> [--store URL] [--json]`. */
export async function runReposCommand(argv: string[]): Promise<number> {
  const { positionals, values, flags } = parse(argv, ["--store"], ["--json", "--help"]);
  if (flags.has("--help")) {
    printText(helpText("repos"));
    return 0;
  }
  if (positionals[0] === "remove") return removeRepo(positionals.slice(1), values.get("--store"), flags.has("--json"));
  if (positionals.length > 0) throw new CortexError("INVALID_INPUT", `unexpected argument: ${positionals.join(" ")} (cortex repos remove <name> removes one)`);
  const store = requireStore(values.get("--store"));
  try {
    const repos = await store.repos();
    flags.has("--json") ? printJson({ store: store.maskedUrl, repos }) : printText(renderRepos(repos, store.maskedUrl));
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * `cortex repos remove <name>`: the repository and everything the store holds of it go in one
 * transaction; servers reading the store stop listing it (their next read no longer sees it).
 */
async function removeRepo(names: string[], flag: string | undefined, json: boolean): Promise<number> {
  if (names.length !== 1) {
    throw new CortexError(
      "INVALID_INPUT",
      names.length === 0 ? "repos remove: name the repository to remove" : `repos remove: one repository at a time (got ${names.join(" ")})`,
    );
  }
  const store = requireStore(flag);
  try {
    const removed = await store.remove(names[0]!, {
      onWait: () => {
        if (!json) process.stderr.write(`cortex: another indexer is publishing ${names[0]}; waiting for it\n`);
      },
    });
    if (json) printJson({ store: store.maskedUrl, removed });
    else
      printText(`removed ${removed.repo} (generation ${removed.generation}, ${removed.files} file${removed.files === 1 ? "" : "s"}) from ${store.maskedUrl}`);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * A tool command over the shared store: `cortex <command> … --repo <name>[,<name>…|all] [--store URL]`.
 * The tool answers from the named repositories' live generations; with several, every path is
 * `<repo>/<path>`, so each hit names its repository.
 */
export async function runToolOnSharedStore(tool: ToolDefinition, argv: string[]): Promise<number> {
  const rest: string[] = [];
  let flag: string | undefined;
  let repos: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--(repo|store)(?:=(.*))?$/.exec(a);
    if (!m) {
      rest.push(a);
      continue;
    }
    const v = m[2] ?? argv[++i];
    if (v === undefined || v === "") throw new CortexError("INVALID_INPUT", `--${m[1]} needs a value`);
    if (m[1] === "repo") repos = v;
    else flag = v;
  }
  const parsed = parseToolArgs(rest, exposedInput(tool).shape as Record<string, any>, tool.cli);
  if (parsed.help) {
    printText(toolHelp(tool));
    return 0;
  }
  parseInput(exposedInput(tool), parsed.input);
  const mode = tool.sharedStore;
  if (typeof mode === "object" && "unavailable" in mode)
    throw new CortexError("UNSUPPORTED", `${tool.name} does not work on the shared store: ${mode.unavailable}`);
  const url = storeUrl(flag);
  if (url === undefined) throw new CortexError("INVALID_INPUT", "no shared store: pass --store postgres://user@host/database or set CORTEX_DATABASE_URL");
  if (repos === undefined) throw new CortexError("INVALID_INPUT", "--repo: name the repositories to search (a name, several separated by commas, or all)");
  const scope = parseRepoScope(repos, "--repo");
  // worker threads (regex verification) open their own reader by source, with this process's URL
  process.env.CORTEX_DATABASE_URL = url;
  const client = connectPostgres(url);
  const scopes = new RepoScopes(client, { root: parsed.root ?? process.cwd(), url: maskUrl(url), defaultScope: scope, session: { oneShot: true } });
  try {
    return await runToolForCli(tool, parsed.input, outputMode(parsed), (ctx) => scopes.invoke(tool, parsed.input as Record<string, unknown>, ctx));
  } finally {
    await scopes.close();
    await client.close();
  }
}
