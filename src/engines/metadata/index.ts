/**
 * get_codebase_metadata: what the project is made of — languages with file and line counts, frameworks
 * and libraries (from manifests and from what the code imports), dependencies with versions, and
 * project statistics — all read from the index.
 */
import type { IndexReader, LanguageShare, ProjectTotals } from "../../store/contract.ts";
import { isManifest, parseManifest, type Manifest } from "./manifests.ts";
import { FRAMEWORKS, matches, type FrameworkCategory } from "./frameworks.ts";

export interface FrameworkFinding {
  name: string;
  category: FrameworkCategory;
  version?: string;
  /** Where it was seen: manifests declaring it, and how many files import it. */
  evidence: string[];
  importing_files: number;
}

export interface CodebaseMetadata {
  name: string;
  root: string;
  languages: Array<LanguageShare & { share: number }>;
  frameworks: FrameworkFinding[];
  manifests: Array<{ path: string; ecosystem: string; name?: string; dependencies: number; dev_dependencies: number }>;
  dependencies: Array<{ ecosystem: string; manifest: string; name: string; version?: string; dev: boolean; importing_files?: number }>;
  statistics: ProjectTotals;
  top_imports: Array<{ module: string; files: number; kind: "std" | "external" | "project" }>;
  index: { last_run?: string; branch?: string; commit?: string };
}

export class MetadataEngine {
  constructor(
    private readonly store: IndexReader,
    private readonly root: string,
  ) {}

  async manifests(): Promise<Manifest[]> {
    const out: Manifest[] = [];
    const paths = (await this.store.allFiles()).map((f) => f.path).filter(isManifest);
    const texts = await this.store.contents(paths);
    for (const p of paths) {
      const text = texts.get(p);
      const m = text === undefined ? undefined : parseManifest(p, text);
      if (m) out.push(m);
    }
    return out;
  }

  async metadata(): Promise<CodebaseMetadata> {
    const manifests = await this.manifests();
    const usage = await this.store.importUsage();
    const langs = await this.store.languageShares();
    const totalCode = langs.reduce((a, l) => a + l.code_lines, 0) || 1;
    const frameworks: FrameworkFinding[] = [];
    // the project's own packages (a monorepo's too) are what it is, not frameworks it uses: hono's
    // benchmarks depend on hono, and hono was listed as a framework of hono
    const ownPackages = manifests.map((m) => m.name).filter((n): n is string => n !== undefined);
    for (const rule of FRAMEWORKS) {
      if (rule.deps.some((p) => ownPackages.some((n) => matches(p, n)))) continue;
      const evidence: string[] = [];
      let version: string | undefined;
      for (const m of manifests) {
        const dep = m.dependencies.find((d) => rule.deps.some((p) => matches(p, d.name)));
        if (dep) {
          evidence.push(m.path);
          version ??= dep.version;
        }
      }
      const importing = usage.filter((u) => rule.imports.some((p) => matches(p, u.module))).reduce((a, u) => a + u.files, 0);
      if (importing > 0) evidence.push(`imported in ${importing} file${importing === 1 ? "" : "s"}`);
      if (evidence.length === 0) continue;
      frameworks.push({ name: rule.name, category: rule.category, ...(version ? { version } : {}), evidence, importing_files: importing });
    }
    frameworks.sort((a, b) => b.importing_files - a.importing_files || a.name.localeCompare(b.name));
    const usageByModule = new Map(usage.map((u) => [u.module, u.files]));
    const dependencies = manifests.flatMap((m) =>
      m.dependencies.map((d) => {
        const used =
          usageByModule.get(d.name) ??
          usage.filter((u) => u.module.startsWith(d.name + "/") || u.module.startsWith(d.name + ".")).reduce((a, u) => a + u.files, 0);
        return {
          ecosystem: m.ecosystem,
          manifest: m.path,
          name: d.name,
          ...(d.version ? { version: d.version } : {}),
          dev: d.dev,
          ...(used ? { importing_files: used } : {}),
        };
      }),
    );
    const name = manifests.find((m) => m.name && !m.path.includes("/"))?.name ?? this.root.split("/").pop() ?? this.root;
    const [lastRun, branch, commit, statistics] = await Promise.all([
      this.store.meta("last_run"),
      this.store.meta("branch"),
      this.store.meta("commit"),
      this.store.projectTotals(),
    ]);
    const meta = (k: string) => ({ last_run: lastRun, branch, commit })[k] || undefined;
    return {
      name,
      root: this.root,
      languages: langs.map((l) => ({ ...l, share: Math.round((l.code_lines / totalCode) * 1000) / 1000 })),
      frameworks,
      manifests: manifests.map((m) => ({
        path: m.path,
        ecosystem: m.ecosystem,
        ...(m.name ? { name: m.name } : {}),
        dependencies: m.dependencies.filter((d) => !d.dev).length,
        dev_dependencies: m.dependencies.filter((d) => d.dev).length,
      })),
      dependencies,
      statistics,
      top_imports: usage.slice(0, 25).map((u) => ({ module: u.module, files: u.files, kind: u.std ? "std" : u.external ? "external" : "project" })),
      index: {
        ...(meta("last_run") ? { last_run: meta("last_run") } : {}),
        ...(meta("branch") ? { branch: meta("branch") } : {}),
        ...(meta("commit") ? { commit: meta("commit") } : {}),
      },
    };
  }
}
