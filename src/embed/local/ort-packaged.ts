/**
 * ONNX Runtime inside the compiled executable. A native addon cannot load from the executable's embedded
 * file system, so on first use the runtime files carried in the executable (the onnxruntime-node addon
 * with libonnxruntime, or, where no native build exists, onnxruntime-web's WebAssembly files; embedded
 * zstd-compressed, see scripts/build.ts) are decompressed and written once to
 * $CORTEX_HOME/lib/onnxruntime-<version>/<platform>/ (temporary file + rename, so concurrent first uses
 * are safe) and the bundled modules are pointed at them through global hooks that scripts/build.ts patches
 * into onnxruntime-node and transformers.js. From source, nothing here runs.
 */
import { chmodSync, existsSync, mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { readEmbeddedFile } from "../../core/embedded.ts";
import { IS_COMPILED } from "../../core/worker-entry.ts";
import { homePaths } from "../../core/paths.ts";
import { CortexError } from "../../core/errors.ts";
import type { OnnxBackend } from "./protocol.ts";

/** Global hooks read by the patched bundle (see scripts/build.ts). */
export const ORT_BINDING_PATH = Symbol.for("cortex.ort-binding-path");
export const ORT_NODE_MODULE = Symbol.for("cortex.onnxruntime-node");
export const ORT_WASM_DIR = Symbol.for("cortex.ort-wasm-dir");

export interface PackagedFiles {
  version: string;
  platform: string;
  /** Backends the executable carries files for. */
  backends: OnnxBackend[];
  /** `path` is in the embedded file system (compressed when it ends in .zst); `size` is the file's size on disk. */
  files: Array<{ name: string; path: string; size: number; backend: OnnxBackend; binding?: boolean }>;
}

async function packaged(): Promise<PackagedFiles> {
  // a virtual module that exists only in the executable (scripts/build.ts generates it per platform)
  const name = "cortex:onnx-files";
  return ((await import(name)) as { default: PackagedFiles }).default;
}

/** Writes one embedded file to disk unless a copy of the expected size is there (checked before decompressing). */
function extract(src: string, size: number, dest: string): void {
  if (existsSync(dest) && statSync(dest).size === size) return;
  const bytes = readEmbeddedFile(src);
  if (bytes.length !== size)
    throw new CortexError("EMBEDDINGS_UNAVAILABLE", `the executable's copy of ${basename(dest)} is damaged (${bytes.length} bytes, expected ${size})`);
  const tmp = `${dest}.${process.pid}.${Date.now()}.part`;
  writeFileSync(tmp, bytes);
  chmodSync(tmp, 0o755);
  renameSync(tmp, dest);
}

/**
 * Prepares the runtime for `backend` when running as the executable; returns the backend actually
 * available (an executable without the native files runs on WebAssembly).
 */
export async function preparePackagedRuntime(backend: OnnxBackend): Promise<OnnxBackend> {
  if (!IS_COMPILED) return backend;
  const p = await packaged();
  const chosen: OnnxBackend = p.backends.includes(backend) ? backend : p.backends[0]!;
  if (!chosen) throw new CortexError("EMBEDDINGS_UNAVAILABLE", "this executable carries no ONNX runtime");
  const dir = join(homePaths.lib(), `onnxruntime-${p.version}`, p.platform);
  mkdirSync(dir, { recursive: true });
  for (const f of p.files) if (f.backend === chosen) extract(f.path, f.size, join(dir, f.name));
  const g = globalThis as Record<symbol, unknown>;
  if (chosen === "native") {
    const binding = p.files.find((f) => f.binding);
    if (!binding) throw new CortexError("EMBEDDINGS_UNAVAILABLE", "the executable's native ONNX runtime is incomplete");
    g[ORT_BINDING_PATH] = join(dir, binding.name);
    g[ORT_NODE_MODULE] = await import("onnxruntime-node");
  } else {
    g[ORT_WASM_DIR] = dir;
    // transformers.js's Node build asks for onnxruntime-node when it loads; the WebAssembly runtime is
    // handed to it separately (installRuntime), so an empty module answers that question
    g[ORT_NODE_MODULE] = {};
  }
  return chosen;
}

/** The folder holding onnxruntime-web's files, when the executable extracted them. */
export function packagedWasmDir(): string | undefined {
  return (globalThis as Record<symbol, unknown>)[ORT_WASM_DIR] as string | undefined;
}
