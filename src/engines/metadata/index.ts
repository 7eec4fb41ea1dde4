/**
 * get_codebase_metadata: what the project is made of — languages with file and line counts, frameworks
 * and libraries (from manifests and from what the code imports), dependencies with versions, and
 * project statistics — all read from the index.
 */
import type { IndexReader, LanguageShare, ProjectTotals } from "../../store/contract.ts";
import { isManifest, parseManifest, type Manifest } from "./manifests.ts";
import { FRAMEWORKS, matches, type FrameworkCategory } from "./frameworks.ts";
import { inAuxiliaryFolder } from "../../core/rel-path.ts";

export interface FrameworkFinding {
  name: string;
  category: FrameworkCategory;
  version?: string;
  /** Where it was seen: manifests declaring it, and how many files import it. */
  evidence: string[];
  importing_files: number;
  /**
   * Seen only in examples, benchmarks, tests, fixtures or docs (their manifests and files), not in the
   * project's own code: what its demos are built with, not what it is built on. Listed after the others.
   */
  auxiliary?: true;
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
    // where each imported module is imported, read only when a framework's imports were seen
    let importers: Map<string, { main: number; auxiliary: number }> | undefined;
    const importersOf = async (module: string) => {
      if (!importers) {
        importers = new Map();
        for (const [file, modules] of await this.store.importsByFile()) {
          const aux = inAuxiliaryFolder(file);
          for (const mod of new Set(modules)) {
            const c = importers.get(mod) ?? { main: 0, auxiliary: 0 };
            if (aux) c.auxiliary++;
            else c.main++;
            importers.set(mod, c);
          }
        }
      }
      return importers.get(module) ?? { main: 0, auxiliary: 0 };
    };
    for (const rule of FRAMEWORKS) {
      if (rule.deps.some((p) => ownPackages.some((n) => matches(p, n)))) continue;
      const evidence: string[] = [];
      let version: string | undefined;
      let mainManifest = false;
      for (const m of manifests) {
        const dep = m.dependencies.find((d) => rule.deps.some((p) => matches(p, d.name)));
        if (!dep) continue;
        evidence.push(m.path);
        const aux = inAuxiliaryFolder(m.path);
        // the project's own manifest's version, not a demo's
        if (!aux && !mainManifest) version = dep.version;
        else version ??= dep.version;
        mainManifest ||= !aux;
      }
      const modules = usage.filter((u) => rule.imports.some((p) => matches(p, u.module)));
      const importing = modules.reduce((a, u) => a + u.files, 0);
      let mainImports = 0;
      for (const u of modules) mainImports += (await importersOf(u.module)).main;
      if (importing > 0) evidence.push(`imported in ${importing} file${importing === 1 ? "" : "s"}`);
      if (evidence.length === 0) continue;
      frameworks.push({
        name: rule.name,
        category: rule.category,
        ...(version ? { version } : {}),
        evidence,
        importing_files: importing,
        // a test framework is used in tests by nature: that is the project's own use of it
        ...(mainManifest || mainImports > 0 || rule.category === "testing" ? {} : { auxiliary: true as const }),
      });
    }
    frameworks.sort(
      (a, b) => Number(a.auxiliary ?? false) - Number(b.auxiliary ?? false) || b.importing_files - a.importing_files || a.name.localeCompare(b.name),
    );
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
