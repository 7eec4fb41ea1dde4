/**
 * Running ast-grep: one process per call, its JSON stream read line by line as it arrives (as bytes: most
 * lines are only counted, see collect.ts), so a deadline or a cancellation stops the process and keeps
 * every match already printed. stderr is kept (capped) for
 * ast-grep's error messages and warnings, which are turned into readable sentences here.
 */
/** One match as `ast-grep --json=stream` prints it (the fields cortex reads). */
export interface RawMatch {
  file: string;
  text: string;
  lines?: string;
  range: Range;
  metaVariables?: {
    single?: Record<string, { text: string; range: Range }>;
    multi?: Record<string, Array<{ text: string; range: Range }>>;
    transformed?: Record<string, string>;
  };
  replacement?: string;
  replacementOffsets?: { start: number; end: number };
}

export interface Range {
  byteOffset: { start: number; end: number };
  start: { line: number; column: number };
  end: { line: number; column: number };
}

export interface RunOutcome {
  /** Exit code; null when the process was stopped. */
  code: number | null;
  stderr: string;
  stoppedBy?: "deadline" | "abort";
}

export interface RunLimits {
  /** Epoch milliseconds after which the process is stopped. */
  deadline: number;
  signal?: AbortSignal;
}

const STDERR_CAP = 64 * 1024;

async function readCapped(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let out = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    if (out.length < STDERR_CAP) out += decoder.decode(chunk, { stream: true });
  }
  return out.length > STDERR_CAP ? out.slice(0, STDERR_CAP) : out;
}

/** Runs ast-grep and hands each complete line of stdout (one JSON match) to `onLine`, as bytes. */
export async function runAstGrep(executable: string, args: string[], cwd: string, limits: RunLimits, onLine?: (line: Uint8Array) => void): Promise<RunOutcome> {
  if (limits.signal?.aborted) return { code: null, stderr: "", stoppedBy: "abort" };
  if (Date.now() >= limits.deadline) return { code: null, stderr: "", stoppedBy: "deadline" };
  const proc = Bun.spawn([executable, ...args], { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let stoppedBy: RunOutcome["stoppedBy"];
  let hardKill: ReturnType<typeof setTimeout> | undefined;
  const stop = (why: "deadline" | "abort") => {
    if (stoppedBy || proc.exitCode !== null) return;
    stoppedBy = why;
    proc.kill();
    hardKill = setTimeout(() => proc.kill(9), 2000);
  };
  const timer = setTimeout(() => stop("deadline"), Math.max(0, limits.deadline - Date.now()));
  const onAbort = () => stop("abort");
  limits.signal?.addEventListener("abort", onAbort, { once: true });
  const stderr = readCapped(proc.stderr);
  try {
    let pending: Uint8Array | undefined;
    for await (const chunk of proc.stdout as unknown as AsyncIterable<Uint8Array>) {
      if (stoppedBy || !onLine) continue;
      const buf = pending ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, start)) {
        if (nl > start) {
          try {
            onLine(buf.subarray(start, nl));
          } catch (e) {
            stop("abort");
            throw e;
          }
        }
        start = nl + 1;
      }
      pending = start < buf.length ? buf.slice(start) : undefined;
    }
    // A stopped process may leave half a line behind; it is not a match.
    const code = await proc.exited;
    return { code: stoppedBy ? null : code, stderr: await stderr, ...(stoppedBy ? { stoppedBy } : {}) };
  } finally {
    clearTimeout(timer);
    if (hardKill) clearTimeout(hardKill);
    limits.signal?.removeEventListener("abort", onAbort);
    if (proc.exitCode === null) proc.kill(9);
  }
}

/** ast-grep's error report ("Error: …", "╰▻ cause" lines) as one sentence, without help links. */
export function astGrepError(stderr: string, userText = ""): string {
  const lines = stderr.split("\n");
  const head = lines
    .find((l) => l.startsWith("Error: "))
    ?.slice("Error: ".length)
    .replace(/ INLINE_RULES\b/, "");
  const causes = lines.filter((l) => l.trimStart().startsWith("╰▻")).map((l) => l.trimStart().slice(2).trim());
  const parts = [head, ...causes].filter((p): p is string => !!p && p.length > 0).map((p) => p.replace(/[.:]\s*$/, ""));
  let text = parts.length > 0 ? parts.join(": ") : stderr.trim().split("\n").slice(0, 3).join(" ");
  // ast-grep swaps `$` for an internal character before parsing some languages; say it as it was typed.
  if (!userText.includes("µ")) text = text.replace(/µ/g, "$");
  // ast-grep repeats the whole pattern in its message: a 30,000-character pattern came back whole
  if (text.length > MAX_ERROR_CHARS) text = `${text.slice(0, 400)} … (${text.length - 500} characters left out) … ${text.slice(-100)}`;
  return text;
}

/** An ast-grep error message's length at most, as cortex repeats it. */
const MAX_ERROR_CHARS = 600;

/** Warnings ast-grep printed while still succeeding: pattern warnings and files it could not read. */
export function astGrepWarnings(stderr: string): string[] {
  const out: string[] = [];
  for (const l of stderr.split("\n")) {
    if (l.startsWith("Warning: ")) out.push(l.slice("Warning: ".length).trim());
    else if (l.startsWith("ERROR: ")) out.push(l.slice("ERROR: ".length).trim());
  }
  return out;
}

/** Whether a failed run was ast-grep refusing the query (pattern, rule or fix) rather than breaking. */
export function isQueryError(stderr: string): boolean {
  return /^Error: Cannot parse (query|rule|fix|pattern)/m.test(stderr) || /^error: invalid value/m.test(stderr);
}
