/**
 * A real PostgreSQL server for the tests, started in a temporary folder (initdb, then pg_ctl on a Unix
 * socket only: nothing listens on the network) and stopped after. When the machine has no server
 * binaries the server tests are skipped with the reason printed; CI machines have them (Debian's
 * postgresql-15), so there they run.
 */
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The folder holding initdb, pg_ctl and postgres (the newest installed version), or undefined. */
export function postgresBinaries(): string | undefined {
  const candidates: string[] = [];
  const lib = "/usr/lib/postgresql";
  if (existsSync(lib)) {
    for (const v of readdirSync(lib).sort((a, b) => Number(b) - Number(a))) candidates.push(join(lib, v, "bin"));
  }
  candidates.push("/usr/local/pgsql/bin", "/usr/local/bin", "/usr/bin");
  return candidates.find((d) => existsSync(join(d, "initdb")) && existsSync(join(d, "pg_ctl")) && existsSync(join(d, "postgres")));
}

/**
 * runuser by absolute path: CI runs the tests with a bare PATH (/usr/local/bin:/usr/bin:/bin) that leaves
 * out the sbin folders it lives in.
 */
function runuserPath(): string | undefined {
  return ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser", "/bin/runuser"].find((p) => existsSync(p));
}

function hasPostgresUser(): boolean {
  return spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).status === 0;
}

/** Why the server tests cannot run here, or undefined when they can. */
export function serverSkipReason(): string | undefined {
  if (postgresBinaries() === undefined) {
    return "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found in /usr/lib/postgresql/*/bin, /usr/local/bin or /usr/bin";
  }
  if (process.getuid?.() === 0 && (runuserPath() === undefined || !hasPostgresUser())) {
    return "running as root, and PostgreSQL refuses root: the server would run as the 'postgres' user through runuser, and this machine lacks one of them";
  }
  return undefined;
}

export interface TestServer {
  /** A URL reaching the server over its socket, as the superuser `cortex` without a password. */
  url(database?: string): string;
  /** The server's folder: its data, its socket and its log. */
  dir: string;
  stop(): void;
}

/** PostgreSQL refuses to run as root: then the server runs as the `postgres` user. */
function asServerUser(cmd: string, args: string[]): string[] {
  if (process.getuid?.() !== 0) return [cmd, ...args];
  return [runuserPath() ?? "runuser", "-u", "postgres", "--", cmd, ...args];
}

function run(argv: string[]): void {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${argv.join(" ")} failed (${r.error?.message ?? r.status}): ${r.stderr || r.stdout}`);
}

/** Starts a fresh server (about a second); throws when the binaries are missing. */
export function startServer(): TestServer {
  const bin = postgresBinaries();
  if (bin === undefined) throw new Error(serverSkipReason());
  // As root the server user must reach the folder: the tests' own temporary folder is private to root,
  // so the server's goes straight under /tmp (a short path, too: a socket's path has ~100 bytes at most).
  const dir = mkdtempSync(join(process.getuid?.() === 0 ? "/tmp" : tmpdir(), "cortex-pg-"));
  if (process.getuid?.() === 0) chownSync(dir, Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim()), 0);
  const data = join(dir, "data");
  run(asServerUser(join(bin, "initdb"), ["-D", data, "-U", "cortex", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]));
  // The superuser `cortex` is trusted; every other role must give its password, as on a real server (a
  // password the store drops, or a wrong one, fails as it would there). The server reads the file as its
  // own user: written here, it stays readable to it.
  writeFileSync(join(data, "pg_hba.conf"), "local all cortex trust\nlocal all all scram-sha-256\n", { mode: 0o644 });
  // no TCP listener; no fsync (a test database need not survive a power loss)
  const options = `-k ${dir} -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  run(asServerUser(join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]));
  let stopped = false;
  return {
    dir,
    url: (database = "postgres") => `postgres://cortex@localhost/${database}?host=${encodeURIComponent(dir)}`,
    stop() {
      if (stopped) return;
      stopped = true;
      const [cmd, ...args] = asServerUser(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      spawnSync(cmd!, args);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
