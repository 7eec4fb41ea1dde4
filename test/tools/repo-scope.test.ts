/**
 * The `repo` argument and RepoScopes over a real PostgreSQL (PGlite): scopes parsed the same from the CLI's
 * and MCP's spellings, unknown names refused with the store's list, one session per distinct scope kept and
 * reused, the least recently used idle one closed beyond the limit, everything closed at the end.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseRepoScope, repoArgument, requireRepoPaths, requireKnownRepos, RepoScopes, scopeKey } from "../../src/tools/repo-scope.ts";
import { isCortexError } from "../../src/core/errors.ts";
import { publishIndex } from "../../src/store/postgres/publish.ts";
import type { PgClient } from "../../src/store/postgres/client.ts";
import { startPglite } from "../store/postgres/pglite-client.ts";
import { indexedProject, type IndexedProject } from "../store/postgres/fixture.ts";
import type { Session } from "../../src/tools/session.ts";
import { findSymbolOccurrencesTool } from "../../src/tools/symbol-tools.ts";
import { searchCodebaseTool } from "../../src/tools/search-codebase.ts";
import { MemoryEngine } from "../../src/engines/memory/index.ts";

describe("parseRepoScope", () => {
  test("a name, names separated by commas, an array, and all", () => {
    expect(parseRepoScope("payments")).toEqual(["payments"]);
    expect(parseRepoScope(" web , payments,web ")).toEqual(["payments", "web"]);
    expect(parseRepoScope(["web", "payments"])).toEqual(["payments", "web"]);
    expect(parseRepoScope("all")).toBe("all");
    expect(parseRepoScope(["web", "all"])).toBe("all");
    expect(() => parseRepoScope(" , ", "--repo")).toThrow("--repo: name a repository, several separated by commas, or all");
    expect(scopeKey(["web", "payments"])).toBe(scopeKey(["payments", "web"]));
  });

  test("path filters over several repositories must name one of them", () => {
    const scope = ["web", "web-admin"];
    expect(() => requireRepoPaths(["web/src", "./web-admin/a.ts", "web"], scope, "paths")).not.toThrow();
    expect(() => requireRepoPaths(["src/a.ts"], scope, "target_paths")).toThrow(
      "target_paths: 'src/a.ts' is in none of the repositories web, web-admin: over several, paths are <repo>/<path>",
    );
  });

  test("the MCP schema takes a string or a non-empty array of strings", () => {
    expect(repoArgument.safeParse("a").success).toBe(true);
    expect(repoArgument.safeParse(["a", "b"]).success).toBe(true);
    expect(repoArgument.safeParse([]).success).toBe(false);
    expect(repoArgument.safeParse(3).success).toBe(false);
  });

  test("unknown names are named, with what the store holds; an empty store says how to fill it", () => {
    expect(() => requireKnownRepos(["a", "x"], ["a", "b"])).toThrow("repo: unknown repository 'x'; the shared store holds: a, b");
    expect(() => requireKnownRepos("all", [], "repo", "postgres://h/db")).toThrow(
      "postgres://h/db holds no repositories yet: publish one with 'cortex index --repo <name> <path>'",
    );
    const many = Array.from({ length: 60 }, (_, i) => `r${String(i).padStart(2, "0")}`);
    try {
      requireKnownRepos(["zz"], many);
      throw new Error("not refused");
    } catch (e) {
      expect(isCortexError(e) && e.code).toBe("INVALID_INPUT");
      expect((e as Error).message).toContain("r49 and 10 more (get_indexing_status or cortex repos lists them)");
    }
    expect(() => requireKnownRepos(["a"], ["a"])).not.toThrow();
  });
});

describe("RepoScopes", () => {
  let client: PgClient;
  let project: IndexedProject;
  let scopes: RepoScopes;

  beforeAll(async () => {
    ({ client } = await startPglite());
    project = indexedProject();
    const store = await project.index();
    for (const name of ["a", "b", "c"]) await publishIndex(client, name, store, {});
    store.close();
    scopes = new RepoScopes(client, { root: project.project.root, url: "pglite", maxSessions: 2 });
  });

  afterAll(async () => {
    await scopes?.close();
    await client?.close();
    project?.project.cleanup();
  });

  const sessionOf = (repo: unknown): Promise<Session> => scopes.withSession(repo, async (s) => s);

  test("one session per distinct scope, whatever the order or spelling of its names", async () => {
    const first = await sessionOf(["a", "b"]);
    expect(await sessionOf("b,a")).toBe(first);
    expect(await sessionOf(undefined)).toBe(await sessionOf("all"));
    const paths = (await first.reader()!.allFiles()).map((f) => f.path);
    expect(paths).toContain("a/src/server.ts");
    expect(paths).toContain("b/src/server.ts");
    expect(paths.some((p) => p.startsWith("c/"))).toBe(false);
    expect(first.sharedStore?.url).toBe("pglite");
    expect((await first.sharedStore!.repos()).map((r) => r.name)).toEqual(["a", "b"]);
  });

  test("beyond the limit the least recently used idle session is closed; one in use never is", async () => {
    const kept = await sessionOf("a");
    // "a" is in use while two more scopes come and go: it stays, the idle ones make room
    await scopes.withSession("a", async (inUse) => {
      expect(inUse).toBe(kept);
      await sessionOf("b");
      await sessionOf("c");
      expect(scopes.scopes).toContain(scopeKey(["a"]));
    });
    expect(scopes.scopes.length).toBeLessThanOrEqual(3);
    await sessionOf("b");
    expect(scopes.scopes).toEqual([scopeKey(["c"]), scopeKey(["b"])]);
    expect(await sessionOf("a")).not.toBe(kept);
  });

  test("path filters over several repositories are checked against the store's names", async () => {
    expect(await scopes.withSession("a", async () => "ok", { paths: ["src"] })).toBe("ok");
    expect(await scopes.withSession("all", async () => "ok", { paths: ["b/src"] })).toBe("ok");
    await expect(scopes.withSession("all", async () => "ok", { target_paths: ["src"] })).rejects.toThrow(
      "target_paths: 'src' is in none of the repositories a, b, c: over several, paths are <repo>/<path>",
    );
  });

  test("a repository published after the names were read is found at once", async () => {
    await expect(sessionOf("d")).rejects.toThrow("repo: unknown repository 'd'; pglite holds: a, b, c");
    const store = await project.index();
    await publishIndex(client, "d", store, {});
    store.close();
    expect((await (await sessionOf("d")).reader()!.allFiles()).map((f) => f.path)).toContain("src/server.ts");
  });

  test("a symbol tool over all reads every repository the store holds now, each path <repo>/<path>", async () => {
    const ctx = { signal: new AbortController().signal, deadline: Date.now() + 60_000 };
    const definitions = async () => {
      const r = (await scopes.invoke(findSymbolOccurrencesTool, { symbol_name: "parseHeader", find_references: false, repo: "all" }, ctx)) as {
        occurrences: Array<{ file_path: string }>;
      };
      return r.occurrences.map((o) => o.file_path);
    };
    expect(await definitions()).toEqual(["a/src/http/header.ts", "b/src/http/header.ts", "c/src/http/header.ts", "d/src/http/header.ts"]);
    const store = await project.index();
    await publishIndex(client, "e", store, {});
    store.close();
    expect(await definitions()).toContain("e/src/http/header.ts");
  });

  test("over several repositories, equal chunks of equal paths are apart: each id names its repository", async () => {
    const reader = (await sessionOf(["a", "b"])).reader()!;
    const hits = await reader.keywordSearch(["parse", "header"], { symbols: 3, title: 2, path: 1, body: 1 }, {}, 50);
    const ids = hits.map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
    const fromA = hits.filter((h) => h.filePath.startsWith("a/"));
    expect(fromA.length).toBeGreaterThan(0);
    expect(hits.filter((h) => h.filePath.startsWith("b/")).length).toBe(fromA.length);
    for (const h of hits) expect(h.id).toContain(`:${h.filePath}#`);
    const rows = await reader.chunksById(ids);
    expect([...rows.keys()].sort()).toEqual([...ids].sort());
    for (const h of hits) expect(rows.get(h.id)!.file_path).toBe(h.filePath);
    // an id of a repository outside the reader's scope is not found
    expect((await reader.chunksById([fromA[0]!.id.replace(":a/", ":c/")])).size).toBe(0);
  });

  test("search_codebase over the store recalls no memory of the folder the server runs in", async () => {
    const local = await new MemoryEngine(project.project.root).remember({
      type: "gotcha",
      category: "http",
      memory: "parseHeader drops folded header lines",
      reason: "a memory of the local project only",
    });
    expect(local.created).toBe(true);
    const ctx = { signal: new AbortController().signal, deadline: Date.now() + 60_000 };
    const r = (await scopes.invoke(searchCodebaseTool, { query: "parse header lines", repo: "a", intent: "explore" }, ctx)) as {
      results: unknown[];
      relatedMemories: unknown[];
    };
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.relatedMemories).toEqual([]);
  });

  test("closing closes every session; nothing is opened after", async () => {
    await sessionOf("a");
    await scopes.close();
    expect(scopes.scopes).toEqual([]);
    await expect(sessionOf("a")).rejects.toThrow("the server is shutting down");
  });
});
