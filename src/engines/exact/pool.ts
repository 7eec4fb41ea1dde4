/**
 * The pool of verification workers. Regex verification always runs here: a pattern that backtracks
 * catastrophically cannot be interrupted on the thread that runs it, but a worker can be terminated.
 * At the deadline (or on cancellation) the pool raises the shared stop flag, gives workers a moment to
 * hand in what they have, terminates any that do not answer, and returns the hits found so far.
 *
 * One pool per process, started lazily and kept warm (the MCP server reuses its workers); idle workers
 * are unreferenced, so they never keep a CLI process alive.
 */
import { availableParallelism } from "node:os";
import { log } from "../../core/log.ts";
import { startWorker } from "../../core/worker-entry.ts";
import type { PatternSpec } from "./text-query.ts";
import type { LineHit } from "./line-scan.ts";
import { unpackHits, type HitWire } from "./hit-wire.ts";

/** A verification job as a worker receives it. */
export interface VerifyJob {
  jobId: number;
  /** Where the worker opens the index (a reader's source, store/open-reader.ts). */
  source: string;
  spec: PatternSpec;
  /** File ids in result order. */
  ids: Uint32Array;
  /** Item index → absolute path, for files read from disk instead of the index (fresh searches). */
  disk: Record<number, string>;
  contextLines: number;
  maxPerFile: number;
  /**
   * Each item's file under this root, with the size and modification time indexed: a file with hits read
   * from the index is checked on disk by the worker that found them (ChunkResult's `stale`), not one by one
   * on the caller's thread (a stat per file was a fifth of a broad grep's time there). Absent for a
   * shared store, whose files are not on this machine.
   */
  onDisk?: { root: string; paths: string[]; mtimes: Float64Array; sizes: Float64Array };
  chunkSize: number;
  /** Int32Array view: [0] stop flag, [1] next chunk to take. */
  control: SharedArrayBuffer;
}

/** One file's hits; `stale` when the job's onDisk check found the file changed or gone since indexing. */
export interface VerifiedFile {
  item: number;
  hits: LineHit[];
  stale?: true;
}

export interface ChunkResult {
  type: "chunk";
  jobId: number;
  chunk: number;
  /** The chunk's files with hits; posted empty, with the hits in `wire` (hit-wire.ts), and unpacked on arrival. */
  files: VerifiedFile[];
  wire?: HitWire;
  /** False when the worker stopped inside the chunk. */
  complete: boolean;
}

export interface PoolRun {
  /** Hits by item index, in item order (those not handed to `onHits` already). */
  hits: VerifiedFile[];
  /** True when some items were not verified (deadline, cancellation, a lost worker). */
  partial: boolean;
  /** True when the run stopped because `maxHits` was reached in item order. */
  capped: boolean;
  /** Items verified (completed chunks). */
  verified: number;
  /** What a worker reported when the pattern could not run there (a regex its engine refuses): no hits are to be trusted. */
  error?: string;
}

export interface PoolRunOptions {
  parallelism: number;
  deadline: number;
  signal?: AbortSignal;
  /** Stop once this many lines are found among the first items (in order). */
  maxHits: number;
  /**
   * Receives the hits of the items before which every item is verified, in item order, as soon as they are:
   * a search printing every match (the CLI's grep) holds no more than the chunks still out of order.
   * Hits handed here are left out of the run's `hits`.
   */
  onHits?(files: VerifiedFile[]): void;
}

/** How long workers get to hand in their results after the stop flag is raised. */
const GRACE_MS = 50;

interface PoolWorker {
  worker: Worker;
  ready: Promise<void>;
  onMessage?: (msg: any) => void;
  dead: boolean;
}

class VerifyPool {
  private readonly workers: PoolWorker[] = [];
  private nextJob = 1;
  private readonly max = Math.max(1, Math.min(2, availableParallelism()));

  private spawn(): PoolWorker {
    const worker = startWorker("engines/exact/verify-worker");
    let ready!: () => void;
    const pw: PoolWorker = { worker, ready: new Promise<void>((r) => (ready = r)), dead: false };
    worker.onmessage = (ev: MessageEvent) => {
      if (ev.data?.type === "ready") ready();
      else pw.onMessage?.(ev.data);
    };
    worker.onerror = (ev) => {
      log.error(`verification worker failed: ${(ev as ErrorEvent).message}`);
      pw.dead = true;
      ready();
      pw.onMessage?.({ type: "lost" });
    };
    worker.unref();
    return pw;
  }

  /** Starts a worker ahead of a search, so its start-up overlaps the planning on this thread. */
  warm(): void {
    for (let i = this.workers.length - 1; i >= 0; i--) if (this.workers[i]!.dead) this.workers.splice(i, 1);
    if (this.workers.length === 0) this.workers.push(this.spawn());
  }

  private take(n: number): PoolWorker[] {
    for (let i = this.workers.length - 1; i >= 0; i--) if (this.workers[i]!.dead) this.workers.splice(i, 1);
    const out: PoolWorker[] = [];
    for (const w of this.workers) if (!w.onMessage && out.length < n) out.push(w);
    while (out.length < n && this.workers.length < this.max) {
      const w = this.spawn();
      this.workers.push(w);
      out.push(w);
    }
    if (out.length === 0) {
      // every worker is busy with another call: this call gets a worker of its own, dropped afterwards
      const w = this.spawn();
      out.push(w);
    }
    return out;
  }

  private kill(w: PoolWorker): void {
    w.dead = true;
    w.worker.terminate();
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
  }

  async run(job: Omit<VerifyJob, "jobId" | "control" | "chunkSize">, o: PoolRunOptions): Promise<PoolRun> {
    const jobId = this.nextJob++;
    const control = new SharedArrayBuffer(8);
    const flags = new Int32Array(control);
    const total = job.ids.length;
    const parallel = Math.max(1, Math.min(o.parallelism, this.max, Math.ceil(total / 32)));
    const chunkSize = Math.max(1, Math.min(64, Math.ceil(total / (parallel * 16))));
    const chunkCount = Math.ceil(total / chunkSize);
    const full: VerifyJob = { ...job, jobId, control, chunkSize };
    const workers = this.take(parallel);
    const done = new Map<number, ChunkResult>();
    let contiguous = 0; // chunks complete in order
    let hitsInOrder = 0;
    let capped = false;
    let lost = false;
    let error: string | undefined;

    const finished = new Promise<void>((resolve) => {
      let active = workers.length;
      const stop = () => Atomics.store(flags, 0, 1);
      let timer: ReturnType<typeof setTimeout> | undefined;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const finish = () => {
        if (timer) clearTimeout(timer);
        if (grace) clearTimeout(grace);
        o.signal?.removeEventListener("abort", expire);
        for (const w of workers) w.onMessage = undefined;
        resolve();
      };
      const expire = () => {
        stop();
        grace ??= setTimeout(() => {
          // whoever has not answered is stuck inside one regex execution
          for (const w of workers) if (w.onMessage) this.kill(w);
          lost = true;
          finish();
        }, GRACE_MS);
      };
      for (const w of workers) {
        w.onMessage = (msg) => {
          if (msg.type === "lost" || msg.type === "error") {
            if (msg.type === "error") {
              log.debug(`verification failed: ${msg.error}`); // the caller reports it (PoolRun.error)
              error ??= msg.error;
            }
            lost = true;
            w.onMessage = undefined;
            if (msg.type === "lost") this.kill(w);
            if (--active === 0) finish();
            return;
          }
          if (msg.jobId !== jobId) return;
          if (msg.type === "chunk") {
            if (msg.wire !== undefined) msg.files = unpackHits(msg.wire);
            done.set(msg.chunk, msg as ChunkResult);
            while (done.get(contiguous)?.complete) {
              const ready = done.get(contiguous)!;
              for (const f of ready.files) hitsInOrder += f.hits.length;
              if (o.onHits && ready.files.length > 0) {
                o.onHits(ready.files);
                ready.files = [];
              }
              contiguous++;
            }
            if (!capped && hitsInOrder >= o.maxHits) {
              capped = true;
              stop();
            }
          } else if (msg.type === "idle") {
            w.onMessage = undefined;
            if (--active === 0) finish();
          }
        };
      }
      const wait = o.deadline - Date.now();
      if (wait <= 0) expire();
      else timer = setTimeout(expire, wait);
      o.signal?.addEventListener("abort", expire);
      if (o.signal?.aborted) expire();
      for (const w of workers) void w.ready.then(() => (w.dead ? w.onMessage?.({ type: "lost" }) : w.worker.postMessage(full)));
    });
    await finished;
    for (const w of workers) if (!this.workers.includes(w) && !w.dead) w.worker.terminate();

    const hits: PoolRun["hits"] = [];
    let verified = 0;
    for (const [chunk, r] of [...done.entries()].sort((a, b) => a[0] - b[0])) {
      if (r.complete) verified += Math.min(total, (chunk + 1) * chunkSize) - chunk * chunkSize;
      hits.push(...r.files);
    }
    // Reaching the cap in order means the first maxHits lines are all known: nothing is missing from them.
    const complete = contiguous >= chunkCount && !lost;
    return { hits, partial: !complete && !capped, capped, verified, ...(error !== undefined ? { error } : {}) };
  }
}

let pool: VerifyPool | undefined;

/** The process's verification pool. */
export function verifyPool(): VerifyPool {
  pool ??= new VerifyPool();
  return pool;
}
