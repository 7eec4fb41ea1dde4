/**
 * The suite every embedding provider passes (local on the native runtime, local on WebAssembly, HTTP):
 * the contract of EmbeddingProvider, and the tiny model's meaning surviving the trip, so a provider that
 * scrambles order, drops texts or mixes up vectors fails here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { EmbeddingProvider } from "../../src/embed/index.ts";
import { isCortexError } from "../../src/core/errors.ts";
import { TINY_DIMENSIONS } from "../../scripts/make-tiny-model.ts";
import { cosine, norm } from "./helpers.ts";

export interface ProviderFixture {
  provider: EmbeddingProvider;
  cleanup(): void | Promise<void>;
}

export function providerSuite(name: string, make: () => Promise<ProviderFixture>): void {
  describe(`${name}: provider contract`, () => {
    let fx: ProviderFixture;
    beforeAll(async () => {
      fx = await make();
    });
    afterAll(async () => {
      await fx.provider.close();
      await fx.cleanup();
    });

    test("becomes ready and learns the model's dimensions", async () => {
      expect(fx.provider.dimensions).toBeUndefined();
      await fx.provider.ready();
      expect(fx.provider.state()).toEqual({ status: "ready" });
      expect(fx.provider.dimensions).toBe(TINY_DIMENSIONS);
      expect(fx.provider.id.length).toBeGreaterThan(0);
    });

    test("returns one unit vector per text, in order", async () => {
      const texts = ["login password", "sql table row", "http request handler", "parse the syntax tree", "retry after timeout error"];
      const vs = await fx.provider.embed(texts, "passage");
      expect(vs).toHaveLength(texts.length);
      for (const v of vs) {
        expect(v).toBeInstanceOf(Float32Array);
        expect(v.length).toBe(TINY_DIMENSIONS);
        expect(norm(v)).toBeCloseTo(1, 4);
      }
      // each vector is its own text's: embedding one text alone gives the same vector as in the batch
      for (let i = 0; i < texts.length; i++) {
        const [alone] = await fx.provider.embed([texts[i]!], "passage");
        expect(cosine(alone!, vs[i]!)).toBeGreaterThan(0.9999);
      }
    });

    test("keeps the meaning: related texts are closer than unrelated ones", async () => {
      const [q, auth, sql] = await fx.provider.embed(["login password", "user session token", "sql table row"], "passage");
      expect(cosine(q!, auth!)).toBeGreaterThan(0.9);
      expect(cosine(q!, sql!)).toBeLessThan(0.3);
    });

    test("embeds an empty list as an empty list", async () => {
      expect(await fx.provider.embed([], "passage")).toEqual([]);
    });

    test("a query finds the passage about its topic", async () => {
      const passages = [
        "func OpenDatabase(path string) (*sql.DB, error)",
        "func (h *Handler) Login(user, password string) (*Session, error)",
        "def parse_expression(tokens): build the syntax tree",
      ];
      const vs = await fx.provider.embed(passages, "passage");
      const [q] = await fx.provider.embed(["where is the user authenticated"], "query");
      const scores = vs.map((v) => cosine(q!, v));
      expect(scores.indexOf(Math.max(...scores))).toBe(1);
    });

    test("refuses an already aborted call with DEADLINE", async () => {
      const ac = new AbortController();
      ac.abort();
      const err = await fx.provider.embed(["x"], "passage", ac.signal).catch((e) => e);
      expect(isCortexError(err) && err.code).toBe("DEADLINE");
    });
  });
}

/** After close(), a provider says so and refuses work. */
export async function expectClosed(provider: EmbeddingProvider): Promise<void> {
  await provider.close();
  expect(provider.state()).toEqual({ status: "unavailable", reason: "the provider is closed" });
  const err = await provider.embed(["x"], "passage").catch((e) => e);
  expect(isCortexError(err) && err.code).toBe("EMBEDDINGS_UNAVAILABLE");
}
