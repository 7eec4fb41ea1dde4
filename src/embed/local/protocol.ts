/**
 * Messages between the local provider (calling thread) and the embedding worker. The worker is told
 * everything it needs in `load` (it reads no config and no environment of its own), so what it does is
 * decided in one place, on the calling thread.
 */

export type OnnxBackend = "native" | "wasm";

export interface LoadRequest {
  type: "load";
  /** Hub id (download cache) or absolute folder path. */
  loadName: string;
  dtype: "fp32" | "q8";
  pooling: "cls" | "mean";
  normalize: boolean;
  /** $CORTEX_HOME/models: where downloads go and hub ids are looked up. */
  modelsDir: string;
  allowDownload: boolean;
  /** Hub base URL ending in "/" (files are fetched from `<hubUrl><model>/resolve/main/<file>`). */
  hubUrl: string;
  /** A download that sends no byte for this long is abandoned. */
  stallMs: number;
  backend: OnnxBackend;
  /** Texts per inference call; queries may run between two of them. */
  microBatch: number;
}

export interface EmbedRequest {
  type: "embed";
  id: number;
  /** Texts with their prefixes already applied. */
  texts: string[];
  /** Queries jump ahead of passage batches waiting in the worker. */
  urgent: boolean;
}

export interface CancelRequest {
  type: "cancel";
  id: number;
}

export type ToWorker = LoadRequest | EmbedRequest | CancelRequest;

export type FromWorker =
  | { type: "progress"; loaded: number; total: number; file?: string }
  | { type: "loaded"; dimensions: number }
  | { type: "load-failed"; error: string }
  /** `data` holds `count` vectors of `dimensions` floats, back to back (transferred, not copied). */
  | { type: "embedded"; id: number; count: number; dimensions: number; data: Float32Array }
  | { type: "failed"; id: number; error: string };
