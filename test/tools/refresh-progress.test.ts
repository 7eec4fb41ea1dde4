/**
 * refresh_index's MCP progress (src/tools/index-tools.ts, src/indexer/progress.ts): one number that only
 * grows over the whole run, as the protocol asks, with the tier and its files in the message.
 */
import { afterAll, expect, test } from "bun:test";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { findTool } from "../../src/tools/index.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import { overallProgress } from "../../src/indexer/progress.ts";

let p: TmpProject | undefined;
afterAll(() => p?.cleanup());

test("overallProgress: the tiers in order make one growing number", () => {
  const reports = [
    overallProgress({ phase: "walk", done: 0, total: 0 }),
    overallProgress({ phase: "text", done: 50, total: 100 }),
    overallProgress({ phase: "text", done: 100, total: 100 }),
    overallProgress({ phase: "parse", done: 0, total: 80 }),
    overallProgress({ phase: "parse", done: 40, total: 80 }),
    overallProgress({ phase: "finish", done: 1, total: 4, step: "reference resolution" }),
    overallProgress({ phase: "finish", done: 4, total: 4, step: "done" }),
  ];
  expect(reports.map((r) => r.progress)).toEqual([0, 5, 10, 10, 50, 92, 100]);
  expect(reports[4]!.message).toBe("parse tier (grep and exact search ready; symbols, graph and search when done): 40/80 files");
  expect(reports[5]!.message).toBe("finishing: reference resolution");
});

test("refresh_index reports progress that only grows, naming each tier", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 150; i++) files[`pkg${i % 5}/f${i}.go`] = `package pkg${i % 5}\n\nfunc F${i}() int {\n\treturn ${i}\n}\n`;
  p = tmpProject(files);
  const s = new Session(p.root);
  try {
    const heard: Array<[number, number, string | undefined]> = [];
    const ctx = {
      session: s,
      signal: new AbortController().signal,
      deadline: Date.now() + 60_000,
      progress: (done: number, total: number, message?: string) => heard.push([done, total, message]),
    };
    await invokeTool(findTool("refresh_index")!, { incremental: false }, ctx);
    expect(heard.length).toBeGreaterThan(3);
    for (let i = 1; i < heard.length; i++) expect(heard[i]![0]).toBeGreaterThan(heard[i - 1]![0]);
    expect(heard.every(([, total]) => total === 100)).toBe(true);
    const messages = heard.map(([, , m]) => m ?? "");
    expect(messages.some((m) => m.startsWith("text tier"))).toBe(true);
    expect(messages.some((m) => m.startsWith("parse tier"))).toBe(true);
    expect(messages.some((m) => m === "finishing: reference resolution")).toBe(true);
    expect(heard.at(-1)![0]).toBe(100);
  } finally {
    s.close();
  }
});
