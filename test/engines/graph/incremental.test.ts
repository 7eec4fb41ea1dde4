/**
 * Incremental reference resolution gives what a full rebuild gives: after each edit (a definition
 * renamed, a file deleted, a file added back, an import changed) the references, their targets and
 * resolutions, the import edges and the cycles of the incrementally updated index equal those of a
 * fresh index of the same tree. Symbol ids of files that did not change stay as they were.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tmpProject, type TmpProject } from "../../helpers/tmp-project.ts";
import { Session } from "../../../src/tools/session.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "graph");
let p: TmpProject;
let session: Session;

/** Everything resolution decides, in a comparable form (ids replaced by what they name). */
async function snapshot(s: Session): Promise<{ refs: string[]; edges: string[]; cycles: string[] }> {
  const store = await s.requireStore();
  const g = new GraphStore(store);
  const symbols = new Map(g.allSymbols().map((x) => [x.id, x]));
  const refs: string[] = [];
  g.forEachRef((r) => {
    const t = r.targetId === null ? undefined : symbols.get(r.targetId);
    if (r.targetId !== null && !t) throw new Error(`dangling target ${r.targetId} of ${r.file}:${r.line} ${r.name}`);
    refs.push(
      `${r.file}:${r.line}:${r.column} ${r.kind} ${r.qualifier ?? ""}.${r.name} -> ${t ? `${t.qname}@${t.file}` : "?"} (${r.resolution ?? "unresolved"})`,
    );
  });
  const edges = g.allEdges().map((e) => `${e.file}:${e.line} -> ${e.target}`);
  const cycles = [...g.componentFiles(undefined).values()].map((c) => c.join(" "));
  return { refs: refs.sort(), edges: edges.sort(), cycles: cycles.sort() };
}

/** The same tree indexed from nothing, in a CORTEX_HOME of its own. */
async function fresh(): Promise<{ refs: string[]; edges: string[]; cycles: string[] }> {
  const home = mkdtempSync(join(tmpdir(), "cortex-fresh-home-"));
  const saved = process.env.CORTEX_HOME;
  process.env.CORTEX_HOME = home;
  const s = new Session(p.root);
  try {
    await s.index();
    return await snapshot(s);
  } finally {
    s.close();
    process.env.CORTEX_HOME = saved;
    rmSync(home, { recursive: true, force: true });
  }
}

async function expectSameAsFresh(): Promise<void> {
  const r = await session.index();
  expect(r.mode).toBe("incremental");
  const incremental = await snapshot(session);
  const full = await fresh();
  expect(incremental.edges).toEqual(full.edges);
  expect(incremental.cycles).toEqual(full.cycles);
  expect(incremental.refs).toEqual(full.refs);
}

beforeAll(async () => {
  p = tmpProject();
  for (const lang of ["go", "python", "typescript"]) cpSync(join(FIXTURES, lang), join(p.root, lang), { recursive: true });
  session = new Session(p.root);
  await session.index();
});
afterAll(() => {
  session.close();
  p.cleanup();
});

const read = (path: string) => readFileSync(join(p.root, path), "utf8");

describe("incremental reference resolution", () => {
  test("a renamed definition unresolves its callers; defining the name again resolves them to the new definition", async () => {
    const g = new GraphStore(await session.requireStore());
    const before = new Map(
      g
        .allSymbols()
        .filter((s) => s.file === "go/audit/audit.go")
        .map((s) => [s.qname, s.id]),
    );
    p.write(
      "python/inventory/pricing.py",
      read("python/inventory/pricing.py").replace("def price_of(item)", "def price_for(item)").replace("return price_of(item)", "return price_for(item)"),
    );
    await expectSameAsFresh();
    const after = await snapshot(session);
    expect(after.refs.filter((r) => r.startsWith("python/inventory/service.py:16:") && r.includes(".price_of ->"))).toEqual([
      "python/inventory/service.py:16:20 call .price_of -> ? (unresolved)",
    ]);
    // files that did not change keep their symbol ids
    const same = new Map(
      g
        .allSymbols()
        .filter((s) => s.file === "go/audit/audit.go")
        .map((s) => [s.qname, s.id]),
    );
    expect(same).toEqual(before);

    p.write("python/inventory/pricing.py", read("python/inventory/pricing.py") + "\n\ndef price_of(item) -> int:\n    return price_for(item)\n");
    await expectSameAsFresh();
    expect((await snapshot(session)).refs).toContain(
      "python/inventory/service.py:16:20 call .price_of -> inventory.pricing.price_of@python/inventory/pricing.py (import)",
    );
  });

  test("a deleted file leaves no references or import edges pointing into it; adding it back restores them", async () => {
    const audit = read("go/audit/audit.go");
    p.remove("go/audit/audit.go");
    await expectSameAsFresh();
    const gone = await snapshot(session);
    expect(gone.edges.some((e) => e.endsWith("-> go/audit/audit.go"))).toBe(false);
    expect(gone.refs.filter((r) => r.includes("go/audit/audit.go") && r.includes("->") && !r.startsWith("go/audit/"))).toEqual([]);
    p.write("go/audit/audit.go", audit);
    await expectSameAsFresh();
    const back = await snapshot(session);
    expect(back.refs).toContain("go/ledger/ledger.go:29:8 call audit.Record -> audit.Record@go/audit/audit.go (import)");
  });

  test("a second definition of a name (a build-tag variant) is chosen as a fresh index chooses it, whatever the ids", async () => {
    // written after audit.go, so its ids are larger, but it comes first in path order
    p.write(
      "go/audit/a_plan9.go",
      "//go:build plan9\n\npackage audit\n\n// Record writes one audit line on Plan 9.\nfunc Record(id string, amount int) {\n}\n",
    );
    await expectSameAsFresh();
    const refs = (await snapshot(session)).refs.filter((r) => r.startsWith("go/ledger/ledger.go:29:8 "));
    expect(refs).toEqual(["go/ledger/ledger.go:29:8 call audit.Record -> audit.Record@go/audit/a_plan9.go (import)"]);
    p.remove("go/audit/a_plan9.go");
    await expectSameAsFresh();
  });

  test("breaking and re-making an import cycle updates the cycles", async () => {
    const pricing = read("typescript/src/services/pricing.ts");
    p.write(
      "typescript/src/services/pricing.ts",
      pricing.replace('import type { Quote } from "./order-service";\n', "type Quote = { order: Order; price: number };\n"),
    );
    await expectSameAsFresh();
    expect((await snapshot(session)).cycles.some((c) => c.includes("typescript/src/services/pricing.ts"))).toBe(false);
    p.write("typescript/src/services/pricing.ts", pricing);
    await expectSameAsFresh();
    expect((await snapshot(session)).cycles).toContain("typescript/src/services/order-service.ts typescript/src/services/pricing.ts");
  });

  test("an index resolved by other rules is resolved again whole on its next run", async () => {
    const before = await snapshot(session);
    const store = await session.requireStore();
    session.close(); // let go of the reader
    const { openDatabase } = await import("../../../src/store/db.ts");
    const db = openDatabase(store.path);
    db.query("UPDATE meta SET value = 'an older set of rules' WHERE key = 'resolver_version'").run();
    db.query("UPDATE ref_rows SET target_symbol_id = NULL, resolution = NULL").run();
    db.close();
    const r = await session.index();
    expect([r.mode, r.parsed]).toEqual(["incremental", 0]);
    expect(await snapshot(session)).toEqual(before);
  });

  test("a new file in a Go package joins the package: importers reach it and its names resolve", async () => {
    p.write("go/audit/extra.go", "package audit\n\n// Reset forgets the count.\nfunc Reset() {\n\tEntries = 0\n}\n");
    p.write("go/service/reset.go", 'package service\n\nimport "example.com/bank/audit"\n\nfunc Clear() {\n\taudit.Reset()\n}\n');
    await expectSameAsFresh();
    const s = await snapshot(session);
    expect(s.edges).toContain("go/service/reset.go:3 -> go/audit/extra.go");
    expect(s.edges).toContain("go/ledger/ledger.go:8 -> go/audit/extra.go");
    expect(s.refs).toContain("go/service/reset.go:6:8 call audit.Reset -> audit.Reset@go/audit/extra.go (import)");
  });
});
