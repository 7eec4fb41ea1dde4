/**
 * Where a worker's entry module lives. From source it is the .ts file beside its caller; inside the
 * executable `bun build --compile` puts every extra entrypoint under /$bunfs/root/ (paths relative to
 * src/, extension .js). Every worker entrypoint must also be listed in scripts/build.ts (WORKERS).
 */
export const IS_COMPILED = import.meta.url.startsWith("file:///$bunfs/") || import.meta.path.startsWith("/$bunfs/");

/** `srcPath` is relative to src/ without extension, e.g. "indexer/parse-worker". */
export function workerEntry(srcPath: string): string {
  return IS_COMPILED ? `/$bunfs/root/${srcPath}.js` : new URL(`../${srcPath}.ts`, import.meta.url).href;
}

/**
 * Starts a worker on one of cortex's entry modules, with the process's environment as it is now: a Bun
 * worker otherwise sees the environment the process started with, not later changes (CORTEX_HOME set
 * by a test, a budget set by a caller), and an index run on a thread wrote to the wrong home.
 */
export function startWorker(srcPath: string): Worker {
  return new Worker(workerEntry(srcPath), { env: { ...process.env } } as WorkerOptions);
}
