import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { configSchema } from "../../src/core/config.ts";
import { homePaths } from "../../src/core/paths.ts";
import { type Problem, rerankerInfo, WITHOUT_RERANKER } from "../../src/cli/doctor/checks.ts";
import { writeTinyCrossEncoder } from "../../scripts/make-tiny-cross-encoder.ts";
import { tempDir } from "../embed/helpers.ts";

const config = (rerank: Record<string, unknown>) => configSchema.parse({ search: { rerank } });

describe("cortex doctor: the reranker", () => {
  test("off by default: says so and what search does without it, no problem", () => {
    const problems: Problem[] = [];
    const info = rerankerInfo("/nowhere", config({}), problems);
    expect(info).toMatchObject({ enabled: false, model: "Xenova/ms-marco-MiniLM-L-6-v2" });
    expect((info as { note: string }).note).toContain(WITHOUT_RERANKER);
    expect(problems).toEqual([]);
  });

  test("enabled and not downloaded: a warning naming the missing files, what is lost, and the fix", () => {
    const problems: Problem[] = [];
    const info = rerankerInfo("/nowhere", config({ enabled: true }), problems);
    expect(info).toMatchObject({ enabled: true, present: false, folder: join(homePaths.models(), "Xenova", "ms-marco-MiniLM-L-6-v2") });
    expect((info as { missing: string[] }).missing).toContain("onnx/model_quantized.onnx");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ area: "reranker", severity: "warning" });
    expect(problems[0]!.message).toContain("the reranker model Xenova/ms-marco-MiniLM-L-6-v2 is not in");
    expect(problems[0]!.message).toContain(WITHOUT_RERANKER);
    // the test environment is offline (test/setup.ts)
    expect(problems[0]!.fix).toContain("unset CORTEX_OFFLINE");
  });

  test("enabled with a model folder that holds the model: present, no problem", () => {
    const dir = tempDir("tiny-cross-encoder");
    writeTinyCrossEncoder(dir.dir);
    const problems: Problem[] = [];
    expect(rerankerInfo("/nowhere", config({ enabled: true, model_path: dir.dir }), problems)).toMatchObject({ enabled: true, present: true, folder: dir.dir });
    expect(problems).toEqual([]);
    dir.remove();
  });

  test("a model name that cannot be a folder: an error naming the setting", () => {
    const problems: Problem[] = [];
    rerankerInfo("/nowhere", config({ enabled: true, model: "../../escape" }), problems);
    expect(problems[0]).toMatchObject({ area: "reranker", severity: "error" });
    expect(problems[0]!.fix).toContain("search.rerank.model");
  });
});
