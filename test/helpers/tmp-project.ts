/**
 * Throwaway projects for tests: write a tree of files into a temporary folder, optionally as a git
 * repository, and remove it afterwards.
 */
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface TmpProject {
  root: string;
  write(path: string, content: string | Uint8Array): void;
  remove(path: string): void;
  cleanup(): void;
}

export function tmpProject(files: Record<string, string | Uint8Array> = {}): TmpProject {
  const root = mkdtempSync(join(tmpdir(), "cortex-test-project-"));
  const p: TmpProject = {
    root,
    write(path, content) {
      const abs = join(root, path);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    },
    remove(path) {
      rmSync(join(root, path), { recursive: true, force: true });
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  for (const [path, content] of Object.entries(files)) p.write(path, content);
  return p;
}

/** A copy of a fixture folder under test/fixtures, so a test can modify it freely. */
export function copyFixture(name: string): TmpProject {
  const p = tmpProject();
  cpSync(join(import.meta.dir, "..", "fixtures", name), p.root, { recursive: true });
  return p;
}

/** Commits a project's whole working tree with author and commit dates `daysAgo` days in the past. */
export function commitAt(root: string, message: string, daysAgo: number): void {
  const date = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@x",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@x",
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
  Bun.spawnSync(["git", "-C", root, "add", "-A"], { env });
  Bun.spawnSync(["git", "-C", root, "commit", "-qm", message], { env });
}

/**
 * Points CORTEX_HOME at a new folder of its own (a test's indexes and caches apart from every other's);
 * the returned function removes the folder and puts the variable back as it was.
 */
export function temporaryHome(prefix = "cortex-test-home-"): () => void {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const before = process.env.CORTEX_HOME;
  process.env.CORTEX_HOME = home;
  return () => {
    rmSync(home, { recursive: true, force: true });
    if (before === undefined) delete process.env.CORTEX_HOME;
    else process.env.CORTEX_HOME = before;
  };
}
