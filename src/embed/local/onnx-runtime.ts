/**
 * Chooses the ONNX Runtime that transformers.js runs on, inside the embedding worker, before transformers.js
 * is first imported (it picks its runtime when its module loads).
 *
 * - native: onnxruntime-node, transformers.js's own choice under Bun; fastest, but its addon and
 *   libonnxruntime must be real files on disk, which `bun build --compile` cannot embed.
 * - wasm: onnxruntime-web's WebAssembly build, handed to transformers.js through the
 *   `Symbol.for("onnxruntime")` hook it honours; pure files, so a compiled executable can carry it.
 *
 * A later packaging step can keep "native" by extracting the addon and libonnxruntime to
 * $CORTEX_HOME/lib/<version>/ and installing that module through the same hook (installRuntime below is
 * the one place to change). Found while trying (2026-11-21): transformers.node.mjs loads onnxruntime-node
 * with createRequire() when it is imported, which a build plugin cannot stub, so a compiled executable
 * fails there whatever runtime is installed; its web build (dist/transformers.web.js) does load in a
 * compiled executable with onnxruntime-web, but has no file system access (model files must come
 * through env.fetch or env.customCache) and stops at "Unable to get model file path or buffer" when it
 * believes it runs under Node. Either route needs that glue; the native one also needs the extraction.
 */
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { OnnxBackend } from "./protocol.ts";

const ORT_SYMBOL = Symbol.for("onnxruntime");

/** What transformers.js must be told about the device for the chosen runtime. */
export interface RuntimeChoice {
  /** `device` for pipeline(): an injected runtime only accepts "auto" (its own default execution provider). */
  device: "cpu" | "auto";
}

export async function installRuntime(backend: OnnxBackend): Promise<RuntimeChoice> {
  if (backend === "native") return { device: "cpu" };
  const ort = await import("onnxruntime-web");
  const dist = dirname(Bun.resolveSync("onnxruntime-web", import.meta.dir));
  const wasm = ort.env.wasm as { numThreads?: number; wasmPaths?: unknown; proxy?: boolean };
  // Threads inside a worker would each need a worker of their own; the embedding worker is the parallelism.
  wasm.numThreads = 1;
  // Local files: transformers.js would otherwise point onnxruntime-web at a CDN.
  wasm.wasmPaths = {
    mjs: pathToFileURL(join(dist, "ort-wasm-simd-threaded.mjs")).href,
    wasm: pathToFileURL(join(dist, "ort-wasm-simd-threaded.wasm")).href,
  };
  (globalThis as Record<symbol, unknown>)[ORT_SYMBOL] = ort;
  return { device: "auto" };
}
