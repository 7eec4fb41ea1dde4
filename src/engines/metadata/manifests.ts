/**
 * Dependency manifests of every ecosystem cortex parses: package.json, go.mod, pyproject.toml,
 * requirements*.txt, setup.cfg, Cargo.toml, pom.xml, build.gradle(.kts), Gemfile, composer.json and
 * *.csproj. Each parser is tolerant: a manifest it cannot read contributes nothing rather than failing
 * the whole answer.
 */

export interface Dependency {
  name: string;
  version?: string;
  dev: boolean;
}

export interface Manifest {
  path: string;
  ecosystem: "npm" | "go" | "pypi" | "cargo" | "maven" | "gradle" | "rubygems" | "composer" | "nuget";
  /** The project's own name, when the manifest declares one. */
  name?: string;
  dependencies: Dependency[];
}

const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);

export function isManifest(path: string): boolean {
  const b = base(path);
  return (
    b === "package.json" ||
    b === "go.mod" ||
    b === "pyproject.toml" ||
    /^requirements.*\.txt$/.test(b) ||
    b === "setup.cfg" ||
    b === "Cargo.toml" ||
    b === "pom.xml" ||
    b === "build.gradle" ||
    b === "build.gradle.kts" ||
    b === "Gemfile" ||
    b === "composer.json" ||
    b.endsWith(".csproj")
  );
}

function npm(path: string, text: string): Manifest {
  const j = JSON.parse(text) as Record<string, unknown>;
  const deps: Dependency[] = [];
  const add = (o: unknown, dev: boolean) => {
    if (o && typeof o === "object") for (const [name, v] of Object.entries(o)) deps.push({ name, version: String(v), dev });
  };
  add(j.dependencies, false);
  add(j.peerDependencies, false);
  add(j.optionalDependencies, false);
  add(j.devDependencies, true);
  return { path, ecosystem: "npm", ...(typeof j.name === "string" ? { name: j.name } : {}), dependencies: deps };
}

function goMod(path: string, text: string): Manifest {
  const deps: Dependency[] = [];
  const mod = /^module\s+(\S+)/m.exec(text)?.[1];
  const add = (line: string) => {
    const m = /^\s*([^\s/]+\.[^\s]+|[^\s]+)\s+(v[^\s]+)(\s*\/\/\s*indirect)?/.exec(line);
    if (m && !line.trim().startsWith("//")) deps.push({ name: m[1]!, version: m[2]!, dev: m[3] !== undefined });
  };
  for (const block of text.matchAll(/^require\s*\(([\s\S]*?)^\)/gm)) block[1]!.split("\n").forEach(add);
  for (const m of text.matchAll(/^require\s+([^(\s].*)$/gm)) add(m[1]!);
  return { path, ecosystem: "go", ...(mod ? { name: mod } : {}), dependencies: deps };
}

/** `requests>=2.0 ; python_version<"3.8"` → requests, >=2.0 */
function pep508(spec: string, dev: boolean): Dependency | undefined {
  const s = spec.split(";")[0]!.trim();
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(.*)$/.exec(s);
  if (!m) return undefined;
  const version = m[3]!.trim();
  return { name: m[1]!.toLowerCase(), ...(version ? { version } : {}), dev };
}

function pyproject(path: string, text: string): Manifest {
  const t = Bun.TOML.parse(text) as Record<string, any>;
  const deps: Dependency[] = [];
  for (const d of (t.project?.dependencies as string[] | undefined) ?? []) {
    const x = pep508(d, false);
    if (x) deps.push(x);
  }
  for (const [group, list] of Object.entries((t.project?.["optional-dependencies"] as Record<string, string[]> | undefined) ?? {})) {
    for (const d of list) {
      const x = pep508(d, /test|dev|lint|doc/i.test(group));
      if (x) deps.push(x);
    }
  }
  const poetry = t.tool?.poetry;
  const addPoetry = (o: Record<string, unknown> | undefined, dev: boolean) => {
    for (const [name, v] of Object.entries(o ?? {})) {
      if (name.toLowerCase() === "python") continue;
      const version = typeof v === "string" ? v : typeof (v as { version?: unknown })?.version === "string" ? (v as { version: string }).version : undefined;
      deps.push({ name: name.toLowerCase(), ...(version ? { version } : {}), dev });
    }
  };
  addPoetry(poetry?.dependencies, false);
  addPoetry(poetry?.["dev-dependencies"], true);
  for (const g of Object.values((poetry?.group as Record<string, { dependencies?: Record<string, unknown> }>) ?? {})) addPoetry(g.dependencies, true);
  const name = (t.project?.name ?? poetry?.name) as string | undefined;
  return { path, ecosystem: "pypi", ...(name ? { name } : {}), dependencies: deps };
}

function requirements(path: string, text: string): Manifest {
  const dev = /dev|test|lint|doc/i.test(base(path));
  const deps = text
    .split("\n")
    // pip's comments start a line or follow whitespace: `#egg=name` in a URL is no comment
    .map((l) => l.replace(/(^|\s)#.*/, "").trim())
    .map((l) => l.replace(/^(-e|--editable)\s+/, ""))
    .filter((l) => l && !l.startsWith("-"))
    .map((l) => urlRequirement(l, dev) ?? pep508(l, dev))
    .filter((d): d is Dependency => d !== undefined);
  return { path, ecosystem: "pypi", dependencies: deps };
}

/**
 * A requirement given by its URL (`git+https://host/org/repo.git@v1#egg=name`, an archive's URL): named by
 * its egg, else by the repository or file it names. Undefined for anything else.
 */
function urlRequirement(line: string, dev: boolean): Dependency | undefined {
  if (!/^(?:[a-z]+\+)?[a-z][a-z0-9+.-]*:\/\//i.test(line)) return undefined;
  const egg = /[#&]egg=([A-Za-z0-9_.-]+)/.exec(line)?.[1];
  const last =
    line
      .replace(/[#?].*$/, "")
      .replace(/@[^/]*$/, "")
      .split("/")
      .pop() ?? "";
  const name = egg ?? last.replace(/\.git$/, "").replace(/(-\d[\w.]*)?\.(tar\.gz|zip|whl|tgz)$/, "");
  return name ? { name, dev } : undefined;
}

function setupCfg(path: string, text: string): Manifest {
  const deps: Dependency[] = [];
  const m = /install_requires\s*=\s*\n((?:[ \t]+.+\n?)+)/.exec(text);
  if (m)
    for (const l of m[1]!.split("\n")) {
      const d = pep508(l.trim(), false);
      if (d && l.trim()) deps.push(d);
    }
  const name = /^\s*name\s*=\s*(\S+)/m.exec(text)?.[1];
  return { path, ecosystem: "pypi", ...(name ? { name } : {}), dependencies: deps };
}

function cargo(path: string, text: string): Manifest {
  const t = Bun.TOML.parse(text) as Record<string, any>;
  const deps: Dependency[] = [];
  const add = (o: Record<string, unknown> | undefined, dev: boolean) => {
    for (const [name, v] of Object.entries(o ?? {})) {
      const version = typeof v === "string" ? v : typeof (v as { version?: unknown })?.version === "string" ? (v as { version: string }).version : undefined;
      deps.push({ name, ...(version ? { version } : {}), dev });
    }
  };
  add(t.dependencies, false);
  add(t["dev-dependencies"], true);
  add(t["build-dependencies"], true);
  add(t.workspace?.dependencies, false);
  // platform-specific ones: [target.'cfg(unix)'.dependencies]
  for (const target of Object.values((t.target as Record<string, Record<string, Record<string, unknown>>>) ?? {})) {
    add(target.dependencies, false);
    add(target["dev-dependencies"], true);
    add(target["build-dependencies"], true);
  }
  return { path, ecosystem: "cargo", ...(t.package?.name ? { name: t.package.name as string } : {}), dependencies: deps };
}

function pom(path: string, text: string): Manifest {
  const deps: Dependency[] = [];
  const props = new Map<string, string>();
  for (const m of text.matchAll(/<properties>([\s\S]*?)<\/properties>/g))
    for (const p of m[1]!.matchAll(/<([\w.-]+)>([^<]*)<\/\1>/g)) props.set(p[1]!, p[2]!.trim());
  for (const m of text.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
    const d = m[1]!;
    const g = /<groupId>\s*([^<]+?)\s*<\/groupId>/.exec(d)?.[1];
    const a = /<artifactId>\s*([^<]+?)\s*<\/artifactId>/.exec(d)?.[1];
    let v = /<version>\s*([^<]+?)\s*<\/version>/.exec(d)?.[1];
    if (v?.startsWith("${")) v = props.get(v.slice(2, -1)) ?? v;
    const scope = /<scope>\s*([^<]+?)\s*<\/scope>/.exec(d)?.[1];
    if (g && a) deps.push({ name: `${g}:${a}`, ...(v ? { version: v } : {}), dev: scope === "test" });
  }
  const artifact = /<project[\s\S]*?<artifactId>\s*([^<]+?)\s*<\/artifactId>/.exec(text.replace(/<parent>[\s\S]*?<\/parent>/, ""))?.[1];
  return { path, ecosystem: "maven", ...(artifact ? { name: artifact } : {}), dependencies: deps };
}

function gradle(path: string, text: string): Manifest {
  const deps: Dependency[] = [];
  for (const m of text.matchAll(
    /\b(implementation|api|compileOnly|runtimeOnly|kapt|ksp|testImplementation|androidTestImplementation|testRuntimeOnly)\s*\(?\s*["']([^"':]+):([^"':]+)(?::([^"']+))?["']/g,
  )) {
    deps.push({ name: `${m[2]}:${m[3]}`, ...(m[4] ? { version: m[4] } : {}), dev: m[1]!.toLowerCase().includes("test") });
  }
  return { path, ecosystem: "gradle", dependencies: deps };
}

function gemfile(path: string, text: string): Manifest {
  const deps: Dependency[] = [];
  let groupDev = false;
  for (const line of text.split("\n")) {
    if (/^\s*group\s+.*(:test|:development)/.test(line)) groupDev = true;
    else if (/^\s*end\b/.test(line)) groupDev = false;
    const m = /^\s*gem\s+["']([^"']+)["'](?:\s*,\s*["']([^"']+)["'])?/.exec(line);
    if (m) deps.push({ name: m[1]!, ...(m[2] ? { version: m[2] } : {}), dev: groupDev || /group:\s*\[?:?(test|development)/.test(line) });
  }
  return { path, ecosystem: "rubygems", dependencies: deps };
}

function composer(path: string, text: string): Manifest {
  const j = JSON.parse(text) as Record<string, any>;
  const deps: Dependency[] = [];
  for (const [name, v] of Object.entries((j.require as Record<string, string>) ?? {}))
    if (name !== "php" && !name.startsWith("ext-")) deps.push({ name, version: v, dev: false });
  for (const [name, v] of Object.entries((j["require-dev"] as Record<string, string>) ?? {})) deps.push({ name, version: v, dev: true });
  return { path, ecosystem: "composer", ...(typeof j.name === "string" ? { name: j.name } : {}), dependencies: deps };
}

function csproj(path: string, text: string): Manifest {
  const deps: Dependency[] = [];
  for (const m of text.matchAll(/<PackageReference\s+Include="([^"]+)"(?:\s+Version="([^"]+)")?[^>]*?(?:\/>|>([\s\S]*?)<\/PackageReference>)/g)) {
    const version = m[2] ?? /<Version>([^<]+)<\/Version>/.exec(m[3] ?? "")?.[1];
    deps.push({ name: m[1]!, ...(version ? { version } : {}), dev: /test|xunit|nunit|mstest|moq|coverlet/i.test(m[1]!) });
  }
  return { path, ecosystem: "nuget", name: base(path).replace(/\.csproj$/, ""), dependencies: deps };
}

/** Parses one manifest; undefined when the file is not a manifest or cannot be read. */
export function parseManifest(path: string, text: string): Manifest | undefined {
  const b = base(path);
  try {
    if (b === "package.json") return npm(path, text);
    if (b === "go.mod") return goMod(path, text);
    if (b === "pyproject.toml") return pyproject(path, text);
    if (/^requirements.*\.txt$/.test(b)) return requirements(path, text);
    if (b === "setup.cfg") return setupCfg(path, text);
    if (b === "Cargo.toml") return cargo(path, text);
    if (b === "pom.xml") return pom(path, text);
    if (b === "build.gradle" || b === "build.gradle.kts") return gradle(path, text);
    if (b === "Gemfile") return gemfile(path, text);
    if (b === "composer.json") return composer(path, text);
    if (b.endsWith(".csproj")) return csproj(path, text);
  } catch {
    return undefined;
  }
  return undefined;
}
