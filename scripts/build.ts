#!/usr/bin/env bun
/**
 * Builds one self-contained executable per platform with Bun's compiler: grammars, worker entrypoints and
 * the ONNX runtime for local embeddings embedded. The large assets (grammars, the ONNX runtimes: 82 of
 * the 206 MB linux-x64 executable) are embedded zstd-compressed (19 MB; docs/benchmarks.md, "Executable
 * size"): grammars are decompressed in memory when loaded (src/core/embedded.ts), the ONNX files once into
 * $CORTEX_HOME/lib. Each compressed file is cached under node_modules/.cache/cortex-build/ by the hash of
 * its content. Three patches make the embedding stack run from an executable (src/embed/local/ort-packaged.ts
 * extracts the native files on first use):
 *   - `sharp` (image decoding, imported by transformers.js's Node build, never used for text) → a stub;
 *   - onnxruntime-node loads its addon from the path the runtime extracted, not from node_modules;
 *   - transformers.js takes onnxruntime-node from a global hook instead of createRequire(), which cannot
 *     reach a bundled module.
 *
 *   bun scripts/build.ts                 all platforms → dist/cortex-<os>-<arch>[.exe]
 *   bun scripts/build.ts linux-x64       one platform
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BunPlugin } from "bun";

const ROOT = resolve(import.meta.dir, "..");
const NM = join(ROOT, "node_modules");

/** Worker entrypoints (see src/core/worker-entry.ts): the executable must carry each one. */
export const WORKERS = [
  "src/indexer/parse-worker.ts",
  "src/indexer/text-worker.ts",
  "src/indexer/walk-worker.ts",
  "src/tools/index-worker.ts",
  "src/store/full-text-worker.ts",
  "src/embed/local/embed-worker.ts",
  "src/engines/exact/verify-worker.ts",
  "src/tools/reader-worker.ts",
];

export const TARGETS: Record<string, { bunTarget: Bun.Build.CompileTarget; file: string; ort: { dir: string; files: string[] } | undefined }> = {
  "linux-x64": { bunTarget: "bun-linux-x64", file: "cortex-linux-x64", ort: { dir: "linux/x64", files: ["onnxruntime_binding.node", "libonnxruntime.so.1"] } },
  "linux-arm64": {
    bunTarget: "bun-linux-arm64",
    file: "cortex-linux-arm64",
    ort: { dir: "linux/arm64", files: ["onnxruntime_binding.node", "libonnxruntime.so.1"] },
  },
  "darwin-x64": { bunTarget: "bun-darwin-x64", file: "cortex-darwin-x64", ort: undefined }, // onnxruntime-node ships no macOS x64 build
  "darwin-arm64": {
    bunTarget: "bun-darwin-arm64",
    file: "cortex-darwin-arm64",
    ort: { dir: "darwin/arm64", files: ["onnxruntime_binding.node", "libonnxruntime.1.dylib", "libonnxruntime.1.30.0.dylib"] },
  },
  "windows-x64": {
    bunTarget: "bun-windows-x64",
    file: "cortex-windows-x64.exe",
    ort: { dir: "win32/x64", files: ["onnxruntime_binding.node", "onnxruntime.dll", "DirectML.dll", "dxil.dll", "dxcompiler.dll"] },
  },
};

/** The target this machine runs, for tests and for building "the local executable". */
export function currentPlatform(platform: string = process.platform, arch: string = process.arch): string {
  const key = `${platform === "win32" ? "windows" : platform}-${arch}`;
  if (!TARGETS[key]) throw new Error(`cortex builds no executable for ${platform}-${arch}; targets: ${Object.keys(TARGETS).join(", ")}`);
  return key;
}

/**
 * zstd level for embedded assets. 12 compresses linux-x64's 82 MB in about 5 s; 19 would save 2 MB more but
 * takes 50 s per platform, which a cold test run (CI) would pay.
 */
const ZSTD_LEVEL = 12;
const CACHE = join(NM, ".cache", "cortex-build");

/**
 * The zstd-compressed copy of `abs`, from the cache or made now. Named by content alone, so two identical
 * files (macOS's libonnxruntime.1.dylib and libonnxruntime.1.30.0.dylib) are one embedded file.
 */
export async function compressedAsset(abs: string): Promise<{ path: string; size: number }> {
  const bytes = readFileSync(abs);
  const hash = new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 32);
  const out = join(CACHE, `${hash}.z${ZSTD_LEVEL}.zst`);
  if (!existsSync(out) || statSync(out).size === 0) {
    mkdirSync(CACHE, { recursive: true });
    const z = await Bun.zstdCompress(bytes, { level: ZSTD_LEVEL });
    const tmp = `${out}.${process.pid}.part`;
    writeFileSync(tmp, z);
    renameSync(tmp, out);
  }
  return { path: out, size: bytes.length };
}

const version = (pkg: string) => JSON.parse(readFileSync(join(NM, pkg, "package.json"), "utf8")).version as string;

/** The files ort-packaged.ts extracts for one platform: native addon + library, and onnxruntime-web's WASM. */
function onnxSources(platform: string): Array<{ abs: string; name: string; backend: "native" | "wasm"; binding?: boolean }> {
  const t = TARGETS[platform]!;
  const out: ReturnType<typeof onnxSources> = [];
  if (t.ort)
    for (const f of t.ort.files)
      out.push({ abs: join(NM, "onnxruntime-node/bin/napi-v6", t.ort.dir, f), name: f, backend: "native", binding: f === "onnxruntime_binding.node" });
  for (const f of ["ort-wasm-simd-threaded.mjs", "ort-wasm-simd-threaded.wasm"])
    out.push({ abs: join(NM, "onnxruntime-web/dist", f), name: f, backend: "wasm" });
  return out;
}

type Compressed = Map<string, { path: string; size: number }>;

/** The files one platform's executable embeds compressed, by what they are (for scripts/executable-size.ts too). */
export function embeddedAssets(platform: string): Array<{ abs: string; group: "grammars" | "onnxruntime-node" | "onnxruntime-web" }> {
  const grammars = [...readFileSync(GRAMMARS_MODULE, "utf8").matchAll(/"\.\.\/\.\.\/(grammars\/[^"]+\.wasm)"/g)].map((m) => join(ROOT, m[1]!));
  if (grammars.length === 0) throw new Error("src/lang/grammars.ts imports no grammar: update scripts/build.ts");
  return [
    ...grammars.map((abs) => ({ abs, group: "grammars" as const })),
    ...onnxSources(platform).map((f) => ({ abs: f.abs, group: f.backend === "native" ? ("onnxruntime-node" as const) : ("onnxruntime-web" as const) })),
  ];
}

/** Every asset the executable embeds compressed, compressed before bundling (a slow plugin stalls Bun.build). */
async function compressAssets(platform: string): Promise<Compressed> {
  return new Map(await Promise.all(embeddedAssets(platform).map(async ({ abs }) => [abs, await compressedAsset(abs)] as const)));
}

/** The virtual module `cortex:onnx-files`: each file embedded compressed, with its size once extracted. */
function onnxFilesModule(platform: string, assets: Compressed): string {
  const sources = onnxSources(platform);
  const compressed = sources.map((f) => assets.get(f.abs)!);
  const imports = compressed.map((c, i) => `import f${i} from ${JSON.stringify(c.path)} with { type: "file" };`);
  const entries = sources.map(
    (f, i) =>
      `{ name: ${JSON.stringify(f.name)}, path: f${i}, size: ${compressed[i]!.size}, backend: ${JSON.stringify(f.backend)}${f.binding ? ", binding: true" : ""} }`,
  );
  const backends = [...new Set(sources.map((f) => f.backend))];
  return `${imports.join("\n")}
export default { version: ${JSON.stringify(version("onnxruntime-node"))}, platform: ${JSON.stringify(platform)}, backends: ${JSON.stringify(backends)}, files: [${entries.join(", ")}] };`;
}

const GRAMMARS_MODULE = join(ROOT, "src/lang/grammars.ts");

/** src/lang/grammars.ts with each `grammars/*.wasm` import pointed at its compressed copy. */
function compressedGrammarsModule(assets: Compressed): string {
  return readFileSync(GRAMMARS_MODULE, "utf8").replace(/"\.\.\/\.\.\/(grammars\/[^"]+\.wasm)"/g, (_, rel: string) =>
    JSON.stringify(assets.get(join(ROOT, rel))!.path),
  );
}

function plugin(platform: string, assets: Compressed): BunPlugin {
  return {
    name: "cortex-executable",
    setup(build) {
      build.onResolve({ filter: /^sharp$/ }, () => ({ path: "sharp", namespace: "cortex-stub" }));
      // truthy, so transformers.js takes its Node path at load; any image call fails with a clear message
      build.onLoad({ filter: /^sharp$/, namespace: "cortex-stub" }, () => ({
        contents: 'export default function sharp() { throw new Error("image processing is not part of cortex"); }',
        loader: "js",
      }));
      build.onResolve({ filter: /^cortex:onnx-files$/ }, () => ({ path: "onnx-files", namespace: "cortex-virtual" }));
      build.onLoad({ filter: /^onnx-files$/, namespace: "cortex-virtual" }, () => ({
        contents: onnxFilesModule(platform, assets),
        loader: "js",
        resolveDir: ROOT,
      }));
      build.onLoad({ filter: /src[\\/]lang[\\/]grammars\.ts$/ }, () => ({ contents: compressedGrammarsModule(assets), loader: "ts" }));
      build.onLoad({ filter: /onnxruntime-node[\\/]dist[\\/]binding\.js$/ }, async (args) => {
        const src = await Bun.file(args.path).text();
        const patched = src.replace(
          /require\(`\.\.\/bin\/napi-v6\/\$\{process\.platform\}\/\$\{process\.arch\}\/onnxruntime_binding\.node`\)/,
          'require(globalThis[Symbol.for("cortex.ort-binding-path")])',
        );
        if (patched === src) throw new Error("onnxruntime-node's binding loader changed: update scripts/build.ts");
        return { contents: patched, loader: "js" };
      });
      build.onLoad({ filter: /@huggingface[\\/]transformers[\\/]dist[\\/]transformers\.node\.mjs$/ }, async (args) => {
        const src = await Bun.file(args.path).text();
        const patched = src.replace(
          'var onnx_node_default = requireFromHere("onnxruntime-node");',
          'var onnx_node_default = globalThis[Symbol.for("cortex.onnxruntime-node")];',
        );
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
    // identifiers and whitespace too (2.3 MB); no code of ours or of a library reads a function's name
    minify: true,
    // the workers share chunks instead of each carrying transformers.js, zod… (3.5 MB)
    splitting: true,
    // compiled to bytecode ahead of time: the executable starts in about half the time
    bytecode: true,
    format: "esm",
    plugins: [plugin(platform, await compressAssets(platform))],
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
