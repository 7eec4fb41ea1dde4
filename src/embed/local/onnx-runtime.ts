/**
 * Chooses the ONNX Runtime that transformers.js runs on, inside the embedding worker, before transformers.js
 * is first imported (it picks its runtime when its module loads).
 *
 * - native: onnxruntime-node, transformers.js's own choice under Bun and about twice as fast as WASM here
 *   (docs/benchmarks.md). Its addon and libonnxruntime must be real files on disk: inside the executable
 *   ort-packaged.ts extracts them to $CORTEX_HOME/lib/onnxruntime-<version>/<platform>/ on first use.
 * - wasm: onnxruntime-web's WebAssembly build, handed to transformers.js through the
 *   `Symbol.for("onnxruntime")` hook it honours; the fallback where no native build exists (macOS x64).
 */
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { OnnxBackend } from "./protocol.ts";
import { packagedWasmDir, preparePackagedRuntime } from "./ort-packaged.ts";

const ORT_SYMBOL = Symbol.for("onnxruntime");

/** What transformers.js must be told about the device for the chosen runtime. */
export interface RuntimeChoice {
  /** `device` for pipeline(): an injected runtime only accepts "auto" (its own default execution provider). */
  device: "cpu" | "auto";
}

export async function installRuntime(requested: OnnxBackend): Promise<RuntimeChoice> {
  const backend = await preparePackagedRuntime(requested);
  if (backend === "native") return { device: "cpu" };
  const ort = await import("onnxruntime-web");
  const dist = packagedWasmDir() ?? dirname(Bun.resolveSync("onnxruntime-web", import.meta.dir));
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
