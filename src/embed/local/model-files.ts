/**
 * Where a local model's files are, and whether they are all there. Decided on the calling thread before any
 * worker starts, so "offline and model not present" is answered at once and never by a hanging download.
 *
 * Two sources: a folder named in the config (`embeddings.model_path`), used as it is, or the download cache
 * `$CORTEX_HOME/models/<org>/<name>/` in the Hugging Face hub layout, filled on first use.
 */
import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { CortexError } from "../../core/errors.ts";
import type { ModelSpec } from "../models.ts";

/** Files transformers.js reads for a BERT-style feature-extraction model, besides the ONNX weights. */
export const MODEL_SIDE_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json"] as const;

/** The ONNX weights file of each dtype, inside the model folder. */
export const ONNX_FILE: Record<ModelSpec["dtype"], string> = { fp32: "onnx/model.onnx", q8: "onnx/model_quantized.onnx" };

/** A Hugging Face model id: `name` or `org/name`; nothing that could lead out of the models folder. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$/;

export interface ModelLocation {
  /** The folder that holds (or will hold) the model files. */
  dir: string;
  /** What transformers.js loads: the hub id (download cache) or the folder's absolute path. */
  loadName: string;
  /** The weights variant to load (a configured folder may only have the other one). */
  dtype: ModelSpec["dtype"];
  /** Whether the folder is the configured model_path (never downloaded into). */
  fromConfig: boolean;
  /** Files still missing; empty when the model can load without the network. */
  missing: string[];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function missingIn(dir: string, dtype: ModelSpec["dtype"]): string[] {
  return [...MODEL_SIDE_FILES, ONNX_FILE[dtype]].filter((f) => !isFile(join(dir, f)));
}

/** Checks a model name before it becomes a path under the models folder. */
export function assertModelId(name: string): void {
  if (!MODEL_ID.test(name)) {
    throw new CortexError("INVALID_INPUT", `embeddings.model: must be a Hugging Face model id such as 'Xenova/bge-small-en-v1.5', got '${name}'`);
  }
}

/** Which setting named a model folder: the environment variable overrides the config file (core/config.ts). */
export function modelPathSetting(modelPath: string | undefined, env: Record<string, string | undefined>): string {
  return modelPath !== undefined && env.CORTEX_EMBEDDINGS_MODEL_PATH === modelPath ? "CORTEX_EMBEDDINGS_MODEL_PATH" : "embeddings.model_path";
}

/**
 * Finds the model: the configured folder (which must exist and hold a complete model) or the download
 * cache (which may still lack files: `missing` says which).
 */
export function locateModel(spec: ModelSpec, options: { modelsDir: string; modelPath?: string; root?: string; setting?: string }): ModelLocation {
  if (options.modelPath !== undefined) {
    const dir = isAbsolute(options.modelPath) ? options.modelPath : resolve(options.root ?? process.cwd(), options.modelPath);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new CortexError("INVALID_INPUT", `${options.setting ?? "embeddings.model_path"}: no such folder: ${dir}`);
    }
    // A folder may hold either weights variant; prefer the one the model table asks for.
    const other: ModelSpec["dtype"] = spec.dtype === "q8" ? "fp32" : "q8";
    const dtype = isFile(join(dir, ONNX_FILE[spec.dtype])) || !isFile(join(dir, ONNX_FILE[other])) ? spec.dtype : other;
    return { dir, loadName: dir, dtype, fromConfig: true, missing: missingIn(dir, dtype) };
  }
  assertModelId(spec.name);
  const dir = join(options.modelsDir, ...spec.name.split("/"));
  return { dir, loadName: spec.name, dtype: spec.dtype, fromConfig: false, missing: missingIn(dir, spec.dtype) };
}
