/**
 * This thread's CPU time. Steps are timed by CPU rather than wall time because the machines that index
 * share their cores: a parse worker's or the indexer thread's wall time says how busy the others were.
 */

/** User plus system CPU of the calling thread, in microseconds. */
export function threadCpuMicros(): number {
  const u = process.threadCpuUsage();
  return u.user + u.system;
}
