import { afterEach, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/core/config.ts";
import { tmpProject } from "../helpers/tmp-project.ts";

afterEach(() => {
  delete process.env.CORTEX_RERANK;
  delete process.env.CORTEX_RERANK_MODEL_PATH;
});

describe("config: search.rerank", () => {
  test("off by default, with the default cross-encoder and its thresholds", () => {
    const p = tmpProject();
    expect(loadConfig(p.root).search.rerank).toEqual({ enabled: false, model: "Xenova/ms-marco-MiniLM-L-6-v2", top_k: 10, min_gap: 0.15 });
    p.cleanup();
  });

  test("set in .cortex/config.yml; CORTEX_RERANK and CORTEX_RERANK_MODEL_PATH override it", () => {
    const p = tmpProject({ ".cortex/config.yml": "search:\n  rerank:\n    enabled: true\n    top_k: 5\n" });
    expect(loadConfig(p.root).search.rerank).toMatchObject({ enabled: true, top_k: 5 });
    process.env.CORTEX_RERANK = "0";
    process.env.CORTEX_RERANK_MODEL_PATH = "/models/ce";
    expect(loadConfig(p.root).search.rerank).toMatchObject({ enabled: false, model_path: "/models/ce" });
    p.cleanup();
  });

  test("bad values are refused, naming the setting", () => {
    const p = tmpProject({ ".cortex/config.yml": "search:\n  rerank:\n    min_gap: 2\n" });
    expect(() => loadConfig(p.root)).toThrow("search.rerank.min_gap");
    p.write(".cortex/config.yml", "search:\n  rerank:\n    enable: true\n");
    expect(() => loadConfig(p.root)).toThrow("search.rerank");
    p.remove(".cortex/config.yml");
    process.env.CORTEX_RERANK = "yes";
    expect(() => loadConfig(p.root)).toThrow("CORTEX_RERANK must be 1 or 0, got 'yes'");
    p.cleanup();
  });
});
