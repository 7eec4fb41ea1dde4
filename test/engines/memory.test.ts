import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { MemoryEngine } from "../../src/engines/memory/index.ts";
import { confidence } from "../../src/engines/memory/decay.ts";
import { memoriesFromLog } from "../../src/engines/memory/git-extract.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
afterEach(() => p?.cleanup());

const DAY = 86_400_000;

describe("team memory", () => {
  test("remember stores an entry once and recall finds it by words", async () => {
    p = tmpProject();
    const m = new MemoryEngine(p.root);
    const a = await m.remember({ type: "gotcha", category: "auth", memory: "Session tokens expire after 24 hours", reason: "clients cached them" });
    expect(a.created).toBe(true);
    const again = await m.remember({ type: "gotcha", category: "auth", memory: "session tokens expire after 24 hours!", reason: "" });
    expect(again.created).toBe(false);
    expect(again.entry.id).toBe(a.entry.id);
    await m.remember({ type: "convention", category: "testing", memory: "Use real SQLite files in tests", reason: "" });
    const r = await m.recall({ query: "token expiry session", limit: 10 });
    expect(r.memories.map((x) => x.id)).toEqual([a.entry.id]);
    expect((await m.recall({ limit: 10 })).total).toBe(2);
    expect((await m.recall({ type: "convention", limit: 10 })).memories[0]!.category).toBe("testing");
    // typo-tolerant: "expyre" still finds the expiry rule
    expect((await m.recall({ query: "tokens expyre", limit: 10 })).memories.map((x) => x.id)).toEqual([a.entry.id]);
    const saved = JSON.parse(readFileSync(join(p.root, ".cortex/memory.json"), "utf8"));
    expect(saved.version).toBe(1);
    expect(saved.memories).toHaveLength(2);
  });

  test("confidence decays by type; below 30% a memory is stale", async () => {
    const now = Date.parse("2026-06-01T00:00:00Z");
    const ago = (days: number) => new Date(now - days * DAY).toISOString();
    expect(confidence("convention", ago(1000), now)).toBe(1);
    expect(confidence("decision", ago(180), now)).toBeCloseTo(0.5, 5);
    expect(confidence("gotcha", ago(90), now)).toBeCloseTo(0.5, 5);
    expect(confidence("failure", ago(180), now)).toBeCloseTo(0.25, 5);
    p = tmpProject();
    const m = new MemoryEngine(p.root);
    await m.remember({ type: "failure", category: "deploy", memory: "Friday deploys broke billing", reason: "" });
    const later = (await m.recall({ limit: 5, now: Date.now() + 200 * DAY })).memories[0]!;
    expect(later.stale).toBe(true);
    expect(later.confidence).toBeLessThan(0.3);
  });

  test("forget removes by id and names an unknown id", async () => {
    p = tmpProject();
    const m = new MemoryEngine(p.root);
    const { entry } = await m.remember({ type: "decision", category: "db", memory: "Use WAL mode", reason: "readers never block" });
    await m.forget(entry.id);
    expect((await m.recall({ limit: 5 })).total).toBe(0);
    await expect(m.forget("m-nope")).rejects.toThrow("no memory with id 'm-nope'");
  });

  test("two processes remembering at once lose nothing", async () => {
    p = tmpProject();
    const script = join(p.root, "add.ts");
    writeFileSync(
      script,
      `import { MemoryEngine } from ${JSON.stringify(join(import.meta.dir, "../../src/engines/memory/index.ts"))};
const m = new MemoryEngine(process.argv[2]);
for (let i = 0; i < 15; i++) await m.remember({ type: "convention", category: "c", memory: process.argv[3] + " rule " + i, reason: "" });`,
    );
    const run = (who: string) => Bun.spawn([process.execPath, script, p.root, who], { stdout: "ignore", stderr: "inherit" }).exited;
    expect(await Promise.all([run("alpha"), run("beta")])).toEqual([0, 0]);
    expect((await new MemoryEngine(p.root).recall({ limit: 100 })).total).toBe(30);
  });

  test("a malformed memory file is refused, not overwritten", async () => {
    p = tmpProject();
    mkdirSync(join(p.root, ".cortex"), { recursive: true });
    writeFileSync(join(p.root, ".cortex/memory.json"), '{"version":1,"memories":[{"id":"x"}]}');
    const m = new MemoryEngine(p.root);
    // recall skips the entry it cannot read and says what is wrong; a write refuses the file (it would drop it)
    const recalled = await m.recall({ limit: 5 });
    expect(recalled.memories).toEqual([]);
    expect(recalled.skipped![0]).toStartWith("memories[0].type: must be one of");
    await expect(m.remember({ type: "gotcha", category: "a", memory: "abc", reason: "" })).rejects.toThrow(".cortex/memory.json");
    expect(readFileSync(join(p.root, ".cortex/memory.json"), "utf8")).toBe('{"version":1,"memories":[{"id":"x"}]}');
    // a file that is not JSON is an error for readers too
    writeFileSync(join(p.root, ".cortex/memory.json"), "{not json");
    await expect(m.recall({ limit: 5 })).rejects.toThrow(".cortex/memory.json is not valid JSON");
  });

  test("a hand-written entry: reason may be left out; created_at must be a date; one bad entry leaves the others recalled", async () => {
    p = tmpProject();
    mkdirSync(join(p.root, ".cortex"), { recursive: true });
    const good = { id: "m-1", type: "convention", category: "pricing", memory: "apply_discount mutates nothing", created_at: "2026-11-01T00:00:00Z" };
    const bad = { ...good, id: "m-2", memory: "the other one", created_at: "yesterday" };
    writeFileSync(join(p.root, ".cortex/memory.json"), JSON.stringify({ version: 1, memories: [good, bad] }));
    const m = new MemoryEngine(p.root);
    const r = await m.recall({ limit: 5 });
    expect(r.memories.map((x) => [x.id, x.reason, x.confidence])).toEqual([["m-1", "", 1]]);
    expect(r.skipped).toEqual(["memories[1].created_at: expected a date and time, such as 2026-11-29T10:00:00Z"]);
    // the words of identifiers and of the reason are found: `discount` in apply_discount, "bug" (a code search stop word)
    writeFileSync(join(p.root, ".cortex/memory.json"), JSON.stringify({ version: 1, memories: [good] }));
    await m.remember({ type: "gotcha", category: "cart", memory: "totals are cached", reason: "bug #12" });
    expect((await m.recall({ query: "discount", limit: 5 })).memories.map((x) => x.id)).toEqual(["m-1"]);
    expect((await m.recall({ query: "bug", limit: 5 })).memories.map((x) => x.category)).toEqual(["cart"]);
  });
});

describe("memories from conventional commits", () => {
  test("fix, feat!, revert and BREAKING CHANGE commits become memories; chores do not", () => {
    const rec = (h: string, s: string, b = "") => `${h}\x1fAnn\x1f2026-05-01T10:00:00+02:00\x1f${s}\x1f${b}\x1e`;
    const log =
      rec("a".repeat(40), "fix(auth): refresh tokens before they expire") +
      rec("b".repeat(40), "chore: bump deps") +
      rec("c".repeat(40), "feat(api)!: drop v1 endpoints") +
      rec("d".repeat(40), "revert: cache layer", "") +
      rec("e".repeat(40), "refactor(db): one connection pool", "BREAKING CHANGE: pool size is now global");
    const m = memoriesFromLog(log);
    expect(m.map((x) => [x.type, x.category, x.memory])).toEqual([
      ["gotcha", "auth", "refresh tokens before they expire"],
      ["decision", "api", "drop v1 endpoints"],
      ["failure", "revert", "cache layer"],
      ["decision", "db", "one connection pool"],
    ]);
    expect(m[3]!.reason).toBe("breaking change: pool size is now global");
    expect(m[0]!.created_at).toBe("2026-05-01T08:00:00.000Z");
  });

  test("import reads the repository's recent history once, de-duplicated", async () => {
    p = tmpProject({ "a.txt": "1" });
    const git = (...args: string[]) =>
      Bun.spawnSync(["git", "-C", p.root, ...args], {
        env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@x", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@x" },
      });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "fix(parser): handle empty files");
    p.write("a.txt", "2");
    git("commit", "-qam", "docs: typo");
    const m = new MemoryEngine(p.root);
    expect(await m.importFromGit(p.root)).toBe(1);
    expect(await m.importFromGit(p.root)).toBe(0);
    const [imported] = (await m.recall({ limit: 5 })).memories;
    expect([imported!.type, imported!.category, imported!.source]).toEqual(["gotcha", "parser", "git"]);
    // removed, it stays removed: the next import skips its commit
    await m.forget(imported!.id);
    expect(await m.importFromGit(p.root)).toBe(0);
    expect((await m.recall({ limit: 5 })).total).toBe(0);
  });
});
