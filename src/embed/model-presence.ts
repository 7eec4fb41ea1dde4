/**
 * Whether the local embedding model's files are in place, looked up without loading anything: what
 * `cortex status` says beside the embeddings' coverage, so that "partial 0%" names its cause.
 */
import type { CortexConfig } from "../core/config.ts";
import { homePaths } from "../core/paths.ts";
import { locateModel } from "./local/model-files.ts";
import { modelSpec } from "./models.ts";

export interface ModelPresence {
  model: string;
  present: boolean;
  folder: string;
}

/**
 * The local model's presence; undefined for another provider, or where the settings name no usable
 * folder (cortex doctor says why).
 */
export function localModelPresence(embeddings: CortexConfig["embeddings"], root: string): ModelPresence | undefined {
  if (embeddings.provider !== "local") return undefined;
  try {
    const loc = locateModel(modelSpec(embeddings.model), {
      modelsDir: homePaths.models(),
      ...(embeddings.model_path !== undefined ? { modelPath: embeddings.model_path } : {}),
      root,
    });
    return { model: embeddings.model, present: loc.missing.length === 0, folder: loc.dir };
  } catch {
    return undefined;
  }
}
