/**
 * Which repositories of a shared store (PostgreSQL) a tool call reads. The MCP `repo` argument and the
 * CLI's `--repo` flag are parsed and checked here, in one place: a name, several, or "all"; names the
 * store does not hold are an error naming them and listing what it does hold, never an empty answer.
 * RepoScopes keeps a long-lived server's sessions, one per distinct scope, over one connection pool.
 */
import { z } from "zod";
import { CortexError } from "../core/errors.ts";
import { PgIndexReader, type RepoScope } from "../store/postgres/reader.ts";
import { listRepos, type RepoInfo } from "../store/postgres/repos.ts";
import type { PgConnection } from "../store/postgres/client.ts";
import { Session, type SessionOptions } from "./session.ts";
import type { ToolDefinition } from "./define.ts";
import type { ToolContext } from "./context.ts";
import { invokeTool } from "./invoke.ts";

export type { RepoScope };

/** The `repo` argument every tool that reads the index takes on a shared store. */
export const repoArgument = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1).max(500)])
  .describe(
    'Which repositories of the shared store to read: one name ("payments"), several (["payments", "web"] or "payments,web"), ' +
      'or "all". Default: the server\'s own scope (its --repo), else all. With more than one repository every path, in results ' +
      "and in path filters, is <repo>/<path>; with one, paths are the repository's own. get_indexing_status lists the repositories.",
  );

/** A scope from what a user typed: `"all"`, a name, names separated by commas, or an array of names. */
export function parseRepoScope(value: string | readonly string[], field = "repo"): RepoScope {
  const names = (typeof value === "string" ? [value] : value).flatMap((v) => v.split(",")).map((n) => n.trim());
  if (names.includes("all")) return "all";
  const unique = [...new Set(names.filter((n) => n !== ""))].sort();
  if (unique.length === 0) throw new CortexError("INVALID_INPUT", `${field}: name a repository, several separated by commas, or all`);
  return unique;
}

/**
 * Path filters over several repositories are `<repo>/<path>`: each must name a repository of the scope,
 * or it is an error (a filter that silently matches nothing would read as "no such code").
 */
export function requireRepoPaths(paths: readonly unknown[], scope: readonly string[], field: string): void {
  for (const p of paths) {
    if (typeof p !== "string") continue;
    const clean = p.replace(/^\.\//, "");
    if (!scope.some((r) => clean === r || clean.startsWith(`${r}/`))) {
      throw new CortexError(
        "INVALID_INPUT",
        `${field}: '${p}' is in none of the repositories ${[...scope].sort().join(", ")}: over several, paths are <repo>/<path>`,
      );
    }
  }
}

/** A scope's key: the same repositories in any order or spelling share one reader. */
export function scopeKey(scope: RepoScope): string {
  return scope === "all" ? "*" : JSON.stringify([...new Set(scope)].sort());
}

const LISTED = 50;

/** How long a server trusts the names it read from the store (one cheap query of the repos table after). */
const KNOWN_FOR_MS = 5000;

/** The repositories' names for a message: all of them, or the first LISTED and how many more. */
function listNames(repos: readonly string[]): string {
  if (repos.length === 0) return "none yet";
  const shown = repos.slice(0, LISTED).join(", ");
  return repos.length > LISTED ? `${shown} and ${repos.length - LISTED} more (get_indexing_status or cortex repos lists them)` : shown;
}

/**
 * Checks a scope against the store's repositories (`held`, by name): throws naming every unknown one
 * and what the store holds, or, for "all", that the store holds nothing yet.
 */
export function requireKnownRepos(scope: RepoScope, held: readonly string[], field = "repo", url = "the shared store"): void {
  if (held.length === 0) {
    throw new CortexError("NOT_FOUND", `${url} holds no repositories yet: publish one with 'cortex index --repo <name> <path>'`);
  }
  if (scope === "all") return;
  const known = new Set(held);
  const unknown = scope.filter((n) => !known.has(n));
  if (unknown.length === 0) return;
  const what = unknown.length === 1 ? `unknown repository '${unknown[0]}'` : `unknown repositories ${unknown.map((n) => `'${n}'`).join(", ")}`;
  throw new CortexError("INVALID_INPUT", `${field}: ${what}; ${url} holds: ${listNames(held)}`, { data: { unknown, repos: held } });
}

/** The repositories of a scope, as get_indexing_status reports them. */
function reposOf(all: RepoInfo[], scope: RepoScope): RepoInfo[] {
  if (scope === "all") return all;
  const wanted = new Set(scope);
  return all.filter((r) => wanted.has(r.name));
}

export interface RepoScopesOptions {
  /** The folder the server runs in: its .cortex/config.yml (embeddings, search settings) applies. */
  root: string;
  /** The store's URL with the password masked (for messages). */
  url: string;
  schema?: string;
  /** Calls without `repo` read this (the server's --repo); "all" when absent. */
  defaultScope?: RepoScope;
  /** Options for each scope's session (oneShot for the CLI). */
  session?: Omit<SessionOptions, "shared" | "models">;
  /** Sessions kept at once; the least recently used idle one is closed beyond it. */
  maxSessions?: number;
}

interface Entry {
  session: Session;
  reader: PgIndexReader;
  /** Calls running on it: an entry is closed only when none is. */
  active: number;
}

/**
 * A server's view of the shared store: a session (and its reader and engines) per distinct scope, built on
 * first use and kept, so a second call over the same repositories reuses what the first loaded; all of
 * them share one connection pool and one embedding model.
 */
export class RepoScopes {
  readonly defaultScope: RepoScope;
  private readonly entries = new Map<string, Entry>();
  /**
   * Names known to exist: a name outside it sends one query to the store (a repository published since),
   * and so does a path filter over "all" naming none of them; after KNOWN_FOR_MS the store is asked
   * again anyway, so that a repository removed from the store (cortex repos remove) is an unknown name.
   */
  private known: string[] | undefined;
  private knownAt = 0;
  private readonly models: Session;
  private readonly maxSessions: number;
  private closed = false;

  constructor(
    private readonly client: PgConnection,
    private readonly opts: RepoScopesOptions,
  ) {
    this.defaultScope = opts.defaultScope ?? "all";
    this.maxSessions = opts.maxSessions ?? 16;
    // a session that never reads an index: it only owns the models the scopes' sessions borrow
    this.models = new Session(opts.root, opts.session ?? {});
  }

  /** The store's repositories now. */
  repos(): Promise<RepoInfo[]> {
    return listRepos(this.client, this.opts.schema ?? "cortex");
  }

  /** Checks a scope's names against the store (asking it again only when a name is not known yet). */
  async check(scope: RepoScope, field = "repo"): Promise<void> {
    const allKnown = (names: string[] | undefined) => names !== undefined && names.length > 0 && (scope === "all" || scope.every((n) => names.includes(n)));
    if (Date.now() - this.knownAt <= KNOWN_FOR_MS && allKnown(this.known)) return;
    this.known = await this.refreshKnown();
    requireKnownRepos(scope, this.known, field, this.opts.url);
  }

  /** The names the store holds now, remembered (a name removed since is forgotten within KNOWN_FOR_MS). */
  private async refreshKnown(): Promise<string[]> {
    const names = (await this.repos()).map((r) => r.name);
    this.knownAt = Date.now();
    return names;
  }

  /** The scope a call's `repo` names (validated, not yet checked against the store); the default when absent. */
  scopeOf(repo: unknown): RepoScope {
    if (repo === undefined) return this.defaultScope;
    const parsed = repoArgument.safeParse(repo);
    if (!parsed.success) throw new CortexError("INVALID_INPUT", 'repo: must be a repository name, an array of names, or "all"');
    return parseRepoScope(parsed.data);
  }

  /**
   * Runs `fn` on the session of the scope `repo` names (see scopeOf), checked against the store. Over
   * several repositories, the path filters (`paths`, `target_paths`) must each name one of them
   * (`<repo>/<path>`): a path naming none would silently match nothing.
   */
  async withSession<T>(repo: unknown, fn: (session: Session) => Promise<T>, pathFilters: Record<string, unknown> = {}): Promise<T> {
    const scope = this.scopeOf(repo);
    const field = repo === undefined ? "--repo" : "repo";
    await this.check(scope, field);
    if (scope === "all" || scope.length > 1) {
      const requirePaths = (names: readonly string[]) => {
        for (const [name, value] of Object.entries(pathFilters)) {
          if (Array.isArray(value)) requireRepoPaths(value, names, name);
        }
      };
      if (scope !== "all") requirePaths(scope);
      else {
        try {
          requirePaths(this.known ?? []);
        } catch {
          // "all" was checked against the names known so far: a path naming none of them may name a
          // repository published since, so the store is asked again (once, on a miss only) before refusing
          this.known = await this.refreshKnown();
          requirePaths(this.known);
        }
      }
    }
    const entry = this.entry(scope);
    entry.active++;
    try {
      return await fn(entry.session);
    } finally {
      entry.active--;
    }
  }

  /**
   * Runs a tool call on the shared store: `repo` picks the scope (see scopeOf), the rest are the tool's
   * arguments. What the tool declares (ToolDefinition.sharedStore) decides how: over the scope's session,
   * within one repository, or once per repository with the answers merged; or it is refused with why.
   */
  async invoke(tool: ToolDefinition, rawArgs: Record<string, unknown>, ctx: Omit<ToolContext, "session">): Promise<unknown> {
    const { repo, ...args } = rawArgs;
    const mode = tool.sharedStore;
    if (typeof mode === "object" && "unavailable" in mode) {
      throw new CortexError("UNSUPPORTED", `${tool.name} does not work on a shared store: ${mode.unavailable}`);
    }
    const { paths, target_paths } = args;
    return this.withSession(repo, (session) => invokeTool(tool, args, { ...ctx, session }), { paths, target_paths });
  }

  /** The sessions kept now, by scope key (for tests and the status line). */
  get scopes(): string[] {
    return [...this.entries.keys()];
  }

  private entry(scope: RepoScope): Entry {
    if (this.closed) throw new CortexError("UNSUPPORTED", "the server is shutting down");
    const key = scopeKey(scope);
    let e = this.entries.get(key);
    if (e) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, e);
      return e;
    }
    const reader = new PgIndexReader(this.client, scope === "all" ? "all" : [...scope].sort(), this.opts.schema ?? "cortex");
    const store = { url: this.opts.url, repos: async () => reposOf(await this.repos(), scope) };
    const session = new Session(this.opts.root, { ...this.opts.session, shared: { reader, store }, models: this.models });
    e = { session, reader, active: 0 };
    this.entries.set(key, e);
    this.evict(key);
    return e;
  }

  /** Closes the least recently used idle sessions beyond maxSessions (never `keep`, about to be used). */
  private evict(keep: string): void {
    for (const [key, e] of this.entries) {
      if (this.entries.size <= this.maxSessions) return;
      if (e.active > 0 || key === keep) continue;
      this.entries.delete(key);
      e.session.close();
      void e.reader.close();
    }
  }

  /** Closes every session and reader (the connection pool belongs to the caller). */
  async close(): Promise<void> {
    this.closed = true;
    for (const e of this.entries.values()) {
      e.session.close();
      await e.reader.close();
    }
    this.entries.clear();
    this.models.close();
  }
}
