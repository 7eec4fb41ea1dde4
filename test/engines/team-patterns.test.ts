import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import type { TeamPatterns } from "../../src/engines/team-patterns/index.ts";
import { patternsTool } from "../../src/tools/get-team-patterns.ts";
import { commitAt as commit, tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
let session: Session;
let all: TeamPatterns;

const unittestFile = (n: number) => `import unittest\n\nclass T${n}(unittest.TestCase):\n    def test_x(self):\n        self.assertTrue(True)\n`;
const pytestFile = (n: number) => `import pytest\n\ndef test_${n}():\n    assert True\n`;

beforeAll(async () => {
  p = tmpProject();
  Bun.spawnSync(["git", "-C", p.root, "init", "-q"]);
  // long ago: unittest everywhere, the logging module, requests
  for (let i = 0; i < 6; i++) p.write(`tests/test_old_${i}.py`, unittestFile(i));
  p.write(
    "app/client.py",
    "import logging\nimport requests\n\nlog = logging.getLogger(__name__)\n\ndef get(url):\n    log.info(url)\n    return requests.get(url)\n",
  );
  p.write("app/service.py", "import logging\n\ndef run():\n    logging.info('x')\n");
  commit(p.root, "old tests", 300);
  // recently: pytest, and httpx in new code
  for (let i = 0; i < 4; i++) p.write(`tests/test_new_${i}.py`, pytestFile(i));
  p.write("app/fetch.py", "import httpx\n\ndef get(url):\n    print(url)\n    return httpx.get(url)\n");
  commit(p.root, "new tests", 5);
  session = new Session(p.root, { autoIndex: true });
  all = await (await session.patterns()).analyze();
});
afterAll(() => {
  session.close();
  p.cleanup();
});

const group = (id: string) => all.groups.find((g) => g.id === id)!;

describe("get_team_patterns", () => {
  test("counts, shares and trends of alternatives, from facts and history", () => {
    const tf = group("py-test-framework");
    expect(tf.files).toBe(10);
    expect(tf.patterns.map((x) => [x.name, x.files, x.share, x.trend])).toEqual([
      ["unittest", 6, 0.6, "declining"],
      ["pytest", 4, 0.4, "rising"],
    ]);
    expect(tf.patterns.find((x) => x.name === "pytest")!.recent_share).toBe(1);
    expect(tf.preferred).toBe("pytest");
    expect(all.history).toEqual({ recent_files: 5, window_days: 90 });
  });

  test("two patterns of a group above 20% are a conflict", () => {
    expect(group("py-test-framework").conflict).toBe(true);
    expect(all.conflicts.find((c) => c.group === "Python test framework")!.patterns).toEqual([
      { name: "unittest", share: 0.6 },
      { name: "pytest", share: 0.4 },
    ]);
    const http = group("py-http-client");
    expect(http.patterns.map((x) => [x.name, x.files])).toEqual([
      ["requests", 1],
      ["httpx", 1],
    ]);
  });

  test("golden files show the most preferred patterns", () => {
    // logging module (2 files) beats print (1); requests and httpx tie at one file each, history too thin to break it
    expect(all.golden_files[0]).toEqual({ file: "app/client.py", score: 2, patterns: ["Python HTTP client: requests", "Python logging: logging module"] });
  });

  test("a category narrows the report; a project without git says so", async () => {
    const testing = await (await session.patterns()).analyze({ category: "testing" });
    expect(new Set(testing.groups.map((g) => g.category))).toEqual(new Set(["testing"]));
    const plain = tmpProject({ "a.py": "import logging\n" });
    const s = new Session(plain.root, { autoIndex: true });
    try {
      const r = await (await s.patterns()).analyze();
      expect(r.history).toEqual({ unavailable: "not a git repository" });
      expect(r.groups.find((g) => g.id === "py-logging")!.patterns[0]).toMatchObject({ name: "logging module", files: 1, trend: "stable" });
      // the text does not call a trend nothing measured stable
      const text = patternsTool.render!(r);
      expect(text).toContain("logging module");
      expect(text).toContain("trend unknown (too few recent changes)");
      expect(text).not.toMatch(/%\s+stable/);
    } finally {
      s.close();
      plain.cleanup();
    }
  });

  test("framework groups count only the files using the framework", async () => {
    const ts = tmpProject({
      "src/plain.ts": "export class Store {\n  constructor(private readonly db: Db) {}\n}\n",
      "src/app.component.ts":
        'import { Component } from "@angular/core";\n\n@Component({})\nexport class App {\n  constructor(private readonly store: Store) {}\n}\n',
      "src/other.ts": "export class Cache {\n  constructor(public size: number) {}\n}\n",
    });
    const s = new Session(ts.root, { autoIndex: true });
    try {
      const r = await (await s.patterns()).analyze({ category: "di" });
      const angular = r.groups.find((g) => g.id === "angular-injection")!;
      expect(angular.files).toBe(1);
      expect(angular.patterns.map((x) => [x.name, x.files, x.examples])).toEqual([["constructor injection", 1, ["src/app.component.ts"]]]);
      const without = await (await s.patterns()).analyze({ files: ["src/plain.ts"] });
      expect(without.by_file).toEqual({});
    } finally {
      s.close();
      ts.cleanup();
    }
  });

  test("a project's own hooks are not React's; test files on vitest's globals count as vitest; pkg/errors' errors.New is not the bare one; benchmarks are no golden files", async () => {
    const q = tmpProject({
      "vitest.config.ts": 'import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { globals: true } });\n',
      "src/jsx/hooks.ts": "export function useState<T>(v: T): [T, (x: T) => void] {\n  return [v, () => {}];\n}\nexport const ctx = useState(1);\n",
      "src/app.tsx": 'import { useState } from "react";\nexport function App() {\n  const [n] = useState(0);\n  return n;\n}\n',
      "src/a.test.ts": 'import { App } from "./app";\ndescribe("a", () => {\n  it("works", () => {\n    expect(App).toBeDefined();\n  });\n});\n',
      "src/b.test.ts": 'import { get } from "./client";\ntest("b", () => {\n  expect(get).toBeDefined();\n});\n',
      "src/c.test.ts": 'import { test } from "vitest";\ntest("c", () => {});\n',
      "go/wrap.go": 'package w\n\nimport "github.com/pkg/errors"\n\nfunc F() error { return errors.New("x") }\n',
      "go/bare.go": 'package w\n\nimport "errors"\n\nfunc G() error { return errors.New("y") }\n',
      "benchmarks/fetch/bench.ts": "export async function run() {\n  try {\n    await fetch('http://x');\n  } catch (e) {\n    console.log(e);\n  }\n}\n",
      "src/client.ts": "export async function get() {\n  try {\n    return await fetch('http://y');\n  } catch (e) {\n    console.log(e);\n  }\n}\n",
    });
    const s = new Session(q.root, { autoIndex: true });
    try {
      const r = await (await s.patterns()).analyze();
      const g = (id: string) => r.groups.find((x) => x.id === id);
      expect(g("react-local-state")!.patterns.map((x) => [x.name, x.files, x.examples])).toEqual([["useState", 1, ["src/app.tsx"]]]);
      expect(g("js-test-framework")!.patterns.map((x) => [x.name, x.files])).toEqual([["vitest", 3]]);
      expect(g("go-error-wrapping")!.patterns.map((x) => [x.name, x.examples])).toEqual([
        ["pkg/errors", ["go/wrap.go"]],
        ["bare errors.New", ["go/bare.go"]],
      ]);
      expect(r.golden_files.map((f) => f.file)).toContain("src/client.ts");
      expect(r.golden_files.map((f) => f.file)).not.toContain("benchmarks/fetch/bench.ts");
    } finally {
      s.close();
      q.cleanup();
    }
  });
});
