/**
 * A large full build hands reference resolution's writes (import edges, references' targets) to the
 * keyword index load's thread, which writes them after its load (IndexStore.resolutionWritesAside):
 * what it wrote is what resolving everything again in place writes, so that finds nothing to change.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { tmpProject, type TmpProject } from "../../helpers/tmp-project.ts";
import { Session } from "../../../src/tools/session.ts";
import { IndexStore } from "../../../src/store/index-store.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";
import { indexLocation } from "../../../src/store/location.ts";
import { resolveReferences } from "../../../src/engines/symbols/resolve-hook.ts";
import type { ProjectInfo } from "../../../src/lang/project.ts";

// more files than a build loads its keyword index beside resolution for (pipeline.ts FULL_TEXT_ASIDE_FILES)
const PACKAGES = 26;
const FILES_PER_PACKAGE = 20;

let p: TmpProject;

beforeAll(async () => {
  const files: Record<string, string> = { "go.mod": "module example.com/m\n\ngo 1.19\n" };
  for (let k = 0; k < PACKAGES; k++) {
    const next = (k + 1) % PACKAGES;
    for (let i = 0; i < FILES_PER_PACKAGE; i++) {
      files[`p${k}/f${i}.go`] = [
        `package p${k}`,
        "",
        `import "example.com/m/p${next}"`,
        "",
        `type T${i} struct{ n int }`,
        "",
        `func (t *T${i}) Get() int { return t.n }`,
        "",
        `func F${i}() int {`,
        `\tt := &T${i}{}`,
        `\treturn t.Get() + p${next}.F${(i + 1) % FILES_PER_PACKAGE}() + F${(i + 1) % FILES_PER_PACKAGE}()`,
        "}",
        "",
      ].join("\n");
    }
  }
  p = tmpProject(files);
  const session = new Session(p.root);
  try {
    await session.index();
  } finally {
    session.close();
  }
});
afterAll(() => p.cleanup());

test("a full build's resolution written aside equals resolving everything again in place", async () => {
  const store = IndexStore.open(indexLocation(p.root).current()!);
  try {
    const g = new GraphStore(store);
    const edges = () =>
      g
        .allEdges()
        .map((e) => `${e.file}:${e.line} -> ${e.target}`)
        .sort();
    let resolved = 0;
    g.forEachRef((r) => {
      if (r.targetId !== null) resolved++;
    });
    const before = edges();
    // every file imports the next package: an edge to each of its files
    expect(before.length).toBe(PACKAGES * FILES_PER_PACKAGE * FILES_PER_PACKAGE);
    expect(resolved).toBeGreaterThan(PACKAGES * FILES_PER_PACKAGE * 3);
    const project = JSON.parse(store.getMeta("project_info")!) as ProjectInfo;
    const again = await resolveReferences(store, { written: [], deleted: [], full: true }, project);
    expect(again.refs).toBeGreaterThan(resolved);
    expect(again.updated).toBe(0);
    expect(edges()).toEqual(before);
  } finally {
    store.close();
  }
});
