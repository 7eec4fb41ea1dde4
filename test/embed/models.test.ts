import { describe, expect, test } from "bun:test";
import { modelSpec } from "../../src/embed/index.ts";
import { recipeOf, withPrefix } from "../../src/embed/models.ts";

describe("model table", () => {
  test("bge-small (the default): CLS pooling, the retrieval instruction on queries only, quantized weights", () => {
    const s = modelSpec("Xenova/bge-small-en-v1.5");
    expect(s).toEqual({
      name: "Xenova/bge-small-en-v1.5",
      pooling: "cls",
      normalize: true,
      queryPrefix: "Represent this sentence for searching relevant passages: ",
      passagePrefix: "",
      dtype: "q8",
      dimensions: 384,
      known: true,
    });
    expect(withPrefix(s, "query", ["find login"])).toEqual(["Represent this sentence for searching relevant passages: find login"]);
    expect(withPrefix(s, "passage", ["func Login()"])).toEqual(["func Login()"]);
  });

  test("e5 and nomic mark both queries and passages", () => {
    const e5 = modelSpec("intfloat/e5-small-v2");
    expect([e5.pooling, e5.queryPrefix, e5.passagePrefix]).toEqual(["mean", "query: ", "passage: "]);
    const nomic = modelSpec("nomic-ai/nomic-embed-text-v1.5");
    expect(withPrefix(nomic, "passage", ["x"])).toEqual(["search_document: x"]);
  });

  test("names match case-insensitively, and served names by their last segment without a tag", () => {
    expect(modelSpec("xenova/BGE-SMALL-EN-V1.5").known).toBe(true);
    expect(modelSpec("nomic-embed-text:latest").queryPrefix).toBe("search_query: ");
    expect(modelSpec("BAAI/bge-small-en-v1.5").pooling).toBe("cls");
    expect(modelSpec("some-org/all-minilm:l6-v2").dimensions).toBe(384);
    expect(modelSpec("text-embedding-3-small").dimensions).toBe(1536);
  });

  test("an unknown model is used plainly: mean pooling, no prefixes, fp32 weights, size learnt at load", () => {
    const s = modelSpec("someone/custom-encoder");
    expect(s).toEqual({ name: "someone/custom-encoder", pooling: "mean", normalize: true, queryPrefix: "", passagePrefix: "", dtype: "fp32", known: false });
    expect(withPrefix(s, "query", ["q"])).toEqual(["q"]);
  });

  test("the recipe changes when the passage side changes, not with the query prefix", () => {
    const bge = modelSpec("Xenova/bge-small-en-v1.5");
    expect(recipeOf(bge)).toBe(recipeOf({ ...bge, queryPrefix: "other: " }));
    expect(recipeOf(bge)).not.toBe(recipeOf({ ...bge, passagePrefix: "passage: " }));
    expect(recipeOf(bge, { pooling: "cls" })).not.toBe(recipeOf(bge, { pooling: "mean" }));
  });
});
