/**
 * Every resolved and unresolved reference of a project, one sorted line each (`file:line:column kind name
 * how target`), and the count per resolution: what a resolution change moves, by `diff` of two dumps.
 *
 *   bun scripts/refs-dump.ts <project> <out.txt> [--tree <cortex source tree>]
 *
 * --tree indexes with another checkout's code (a worktree of an earlier commit), for before / after
 * pairs from one script. The index goes where CORTEX_HOME says.
 */
import { resolve } from "node:path";

const args = process.argv.slice(2);
const treeAt = args.indexOf("--tree");
const tree = treeAt >= 0 ? resolve(args.splice(treeAt, 2)[1] ?? "") : resolve(import.meta.dir, "..");
const [project, out] = args;
if (!project || !out) {
  console.error("usage: bun scripts/refs-dump.ts <project> <out.txt> [--tree <cortex source tree>]");
  process.exit(2);
}
const { Session } = (await import(`${tree}/src/tools/session.ts`)) as typeof import("../src/tools/session.ts");
const { GraphStore } = (await import(`${tree}/src/store/graph-store.ts`)) as typeof import("../src/store/graph-store.ts");
const session = new Session(resolve(project));
try {
  const started = performance.now();
  await session.index();
  const ms = Math.round(performance.now() - started);
  const g = new GraphStore(await session.requireStore());
  const byId = new Map(g.allSymbols().map((s) => [s.id, s.qname]));
  const lines: string[] = [];
  const counts: Record<string, number> = {};
  g.forEachRef((r) => {
    const how = r.resolution ?? "-";
    counts[how] = (counts[how] ?? 0) + 1;
    lines.push(`${r.file}:${r.line}:${r.column} ${r.kind} ${r.name} ${how} ${r.targetId === null ? "-" : (byId.get(r.targetId) ?? "?")}`);
  });
  lines.sort();
  await Bun.write(out, `${lines.join("\n")}\n`);
  console.log(`${project}: indexed in ${ms} ms; references by resolution ${JSON.stringify(counts)}`);
} finally {
  session.close();
}
