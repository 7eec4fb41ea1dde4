/**
 * Logging goes to stderr only: stdout belongs to the MCP protocol or to the CLI's JSON result.
 * A sink can be swapped in (the MCP server forwards records as logging notifications).
 */

export type LogLevel = "debug" | "info" | "warning" | "error";
const order: Record<LogLevel, number> = { debug: 10, info: 20, warning: 30, error: 40 };

export interface LogRecord {
  level: LogLevel;
  message: string;
  data?: Record<string, unknown>;
}

type Sink = (record: LogRecord) => void;

const stderrSink: Sink = (r) => {
  const extra = r.data ? " " + JSON.stringify(r.data) : "";
  process.stderr.write(`cortex ${r.level}: ${r.message}${extra}\n`);
};

let threshold: LogLevel = (process.env.CORTEX_LOG as LogLevel | undefined) ?? "warning";
if (!(threshold in order)) threshold = "warning";
const sinks = new Set<Sink>([stderrSink]);
/** Sinks that take records from their own level up, whatever the threshold (the MCP client filters by the level it set). */
const ownLevel = new Map<Sink, LogLevel>();

export const log = {
  setLevel(level: LogLevel): void {
    threshold = level;
  },
  level(): LogLevel {
    return threshold;
  },
  /** `from`: the sink takes records from this level up, whatever CORTEX_LOG says (stderr's threshold). */
  addSink(sink: Sink, from?: LogLevel): () => void {
    sinks.add(sink);
    if (from) ownLevel.set(sink, from);
    return () => {
      sinks.delete(sink);
      ownLevel.delete(sink);
    };
  },
  /** Sends every record to `sink` alone (a worker thread forwards its records to the thread that owns the output). */
  replaceSinks(sink: Sink): void {
    sinks.clear();
    ownLevel.clear();
    sinks.add(sink);
  },
  write(level: LogLevel, message: string, data?: Record<string, unknown>): void {
    const record: LogRecord = data ? { level, message, data } : { level, message };
    for (const s of sinks) if (order[level] >= order[ownLevel.get(s) ?? threshold]) s(record);
  },
  debug: (m: string, d?: Record<string, unknown>) => log.write("debug", m, d),
  info: (m: string, d?: Record<string, unknown>) => log.write("info", m, d),
  warn: (m: string, d?: Record<string, unknown>) => log.write("warning", m, d),
  error: (m: string, d?: Record<string, unknown>) => log.write("error", m, d),
};
