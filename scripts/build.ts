#!/usr/bin/env bun
/**
 * Builds one self-contained executable per platform with Bun's compiler: grammars, worker entrypoints and
 * the ONNX runtime for local embeddings embedded. Three patches make the embedding stack run from an
 * executable (src/embed/local/ort-packaged.ts extracts the native files on first use):
 *   - `sharp` (image decoding, imported by transformers.js's Node build, never used for text) → a stub;
 *   - onnxruntime-node loads its addon from the path the runtime extracted, not from node_modules;
 *   - transformers.js takes onnxruntime-node from a global hook instead of createRequire(), which cannot
 *     reach a bundled module.
 *
 *   bun scripts/build.ts                 all platforms → dist/cortex-<os>-<arch>[.exe]
 *   bun scripts/build.ts linux-x64       one platform
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BunPlugin } from "bun";

const ROOT = resolve(import.meta.dir, "..");
const NM = join(ROOT, "node_modules");

/** Worker entrypoints (see src/core/worker-entry.ts): the executable must carry each one. */
export const WORKERS = [
  "src/indexer/parse-worker.ts",
  "src/tools/index-worker.ts",
  "src/store/full-text-worker.ts",
  "src/embed/local/embed-worker.ts",
  "src/engines/exact/verify-worker.ts",
  "src/tools/reader-worker.ts",
];

export const TARGETS: Record<string, { bunTarget: Bun.Build.CompileTarget; file: string; ort: { dir: string; files: string[] } | undefined }> = {
  "linux-x64": { bunTarget: "bun-linux-x64", file: "cortex-linux-x64", ort: { dir: "linux/x64", files: ["onnxruntime_binding.node", "libonnxruntime.so.1"] } },
  "linux-arm64": { bunTarget: "bun-linux-arm64", file: "cortex-linux-arm64", ort: { dir: "linux/arm64", files: ["onnxruntime_binding.node", "libonnxruntime.so.1"] } },
  "darwin-x64": { bunTarget: "bun-darwin-x64", file: "cortex-darwin-x64", ort: undefined }, // onnxruntime-node ships no macOS x64 build
  "darwin-arm64": { bunTarget: "bun-darwin-arm64", file: "cortex-darwin-arm64", ort: { dir: "darwin/arm64", files: ["onnxruntime_binding.node", "libonnxruntime.1.dylib", "libonnxruntime.1.30.0.dylib"] } },
  "windows-x64": { bunTarget: "bun-windows-x64", file: "cortex-windows-x64.exe", ort: { dir: "win32/x64", files: ["onnxruntime_binding.node", "onnxruntime.dll", "DirectML.dll", "dxil.dll", "dxcompiler.dll"] } },
};

const version = (pkg: string) => JSON.parse(readFileSync(join(NM, pkg, "package.json"), "utf8")).version as string;

/** The files ort-packaged.ts extracts for one platform: native addon + library, or onnxruntime-web's WASM. */
function onnxFilesModule(platform: string): string {
  const t = TARGETS[platform]!;
  const imports: string[] = [];
  const entries: string[] = [];
  const add = (abs: string, name: string, backend: "native" | "wasm", binding = false) => {
    const id = `f${imports.length}`;
    imports.push(`import ${id} from ${JSON.stringify(abs)} with { type: "file" };`);
    entries.push(`{ name: ${JSON.stringify(name)}, path: ${id}, backend: ${JSON.stringify(backend)}${binding ? ", binding: true" : ""} }`);
  };
  const backends: string[] = [];
  if (t.ort) {
    backends.push("native");
    for (const f of t.ort.files) add(join(NM, "onnxruntime-node/bin/napi-v6", t.ort.dir, f), f, "native", f === "onnxruntime_binding.node");
  }
  backends.push("wasm");
  const web = join(NM, "onnxruntime-web/dist");
  for (const f of ["ort-wasm-simd-threaded.mjs", "ort-wasm-simd-threaded.wasm"]) add(join(web, f), f, "wasm");
  return `${imports.join("\n")}
export default { version: ${JSON.stringify(version("onnxruntime-node"))}, platform: ${JSON.stringify(platform)}, backends: ${JSON.stringify(backends)}, files: [${entries.join(", ")}] };`;
}

function plugin(platform: string): BunPlugin {
  return {
    name: "cortex-executable",
    setup(build) {
      build.onResolve({ filter: /^sharp$/ }, () => ({ path: "sharp", namespace: "cortex-stub" }));
      // truthy, so transformers.js takes its Node path at load; any image call fails with a clear message
      build.onLoad({ filter: /^sharp$/, namespace: "cortex-stub" }, () => ({ contents: 'export default function sharp() { throw new Error("image processing is not part of cortex"); }', loader: "js" }));
      build.onResolve({ filter: /^cortex:onnx-files$/ }, () => ({ path: "onnx-files", namespace: "cortex-virtual" }));
      build.onLoad({ filter: /^onnx-files$/, namespace: "cortex-virtual" }, () => ({ contents: onnxFilesModule(platform), loader: "js", resolveDir: ROOT }));
      build.onLoad({ filter: /onnxruntime-node[\\/]dist[\\/]binding\.js$/ }, async (args) => {
        const src = await Bun.file(args.path).text();
        const patched = src.replace(/require\(`\.\.\/bin\/napi-v6\/\$\{process\.platform\}\/\$\{process\.arch\}\/onnxruntime_binding\.node`\)/, 'require(globalThis[Symbol.for("cortex.ort-binding-path")])');
        if (patched === src) throw new Error("onnxruntime-node's binding loader changed: update scripts/build.ts");
        return { contents: patched, loader: "js" };
      });
      build.onLoad({ filter: /@huggingface[\\/]transformers[\\/]dist[\\/]transformers\.node\.mjs$/ }, async (args) => {
        const src = await Bun.file(args.path).text();
        const patched = src.replace('var onnx_node_default = requireFromHere("onnxruntime-node");', 'var onnx_node_default = globalThis[Symbol.for("cortex.onnxruntime-node")];');
        if (patched === src) throw new Error("transformers.js's onnxruntime-node loader changed: update scripts/build.ts");
        return { contents: patched, loader: "js" };
      });
    },
  };
}

export async function build(platform: string, outDir = join(ROOT, "dist")): Promise<string> {
  const t = TARGETS[platform];
  if (!t) throw new Error(`unknown platform '${platform}': ${Object.keys(TARGETS).join(", ")}`);
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, t.file);
  const result = await Bun.build({
    entrypoints: [join(ROOT, "src/cli/main.ts"), ...WORKERS.map((w) => join(ROOT, w))],
    compile: { target: t.bunTarget, outfile, autoloadBunfig: false, autoloadDotenv: false },
    minify: { syntax: true, whitespace: false, identifiers: false },
    // compiled to bytecode ahead of time: the executable starts in about half the time
    bytecode: true,
    format: "esm",
    plugins: [plugin(platform)],
    root: join(ROOT, "src"),
  });
  if (!result.success) throw new Error(`build failed for ${platform}:\n${result.logs.map((l) => String(l)).join("\n")}`);
  return outfile;
}

if (import.meta.main) {
  const wanted = process.argv.slice(2);
  for (const p of wanted.length ? wanted : Object.keys(TARGETS)) {
    const out = await build(p);
    console.log(`built ${out}`);
  }
}

