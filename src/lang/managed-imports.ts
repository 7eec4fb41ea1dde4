/**
 * Import classification and resolution shared by Java, Kotlin and C#: all three import dotted names of
 * packages (namespaces) and the types in them, so one set of rules serves them, with one list of
 * standard-library names per platform. Names are matched as whole packages, never as text prefixes, so
 * `javax.xml.bind` (JAXB, removed from the JDK in 11) is not taken for `javax.xml`, and `com.google.foo`
 * in the project does not make Guava's `com.google.common` internal.
 */
import type { ImportFact } from "./types.ts";
import type { ProjectFiles } from "./module.ts";
import type { ProjectInfo } from "./project.ts";

/** Packages whose whole subtree ships with the JDK (Java SE 21 and the exported `jdk.*` modules). */
const JDK_SUBTREES = [
  "java",
  "jdk",
  "javax.swing",
  "javax.imageio",
  "javax.print",
  "javax.sound",
  "javax.lang.model",
  "javax.naming",
  "javax.crypto",
  "javax.net",
  "javax.sql",
  "javax.management",
  "javax.xml.crypto",
  "javax.xml.stream",
  "javax.xml.transform",
  "org.w3c.dom",
  "org.xml.sax",
  "com.sun.net.httpserver",
  "com.sun.source",
  "com.sun.jdi",
  "com.sun.management",
  "com.sun.security.auth",
  "com.sun.security.jgss",
  "com.sun.nio.sctp",
  "com.sun.nio.file",
  "com.sun.tools.attach",
  "com.sun.tools.javac",
  "com.sun.tools.jconsole",
  "com.sun.java.accessibility.util",
  "sun.misc",
  "sun.reflect",
];

/**
 * Single JDK packages whose neighbours are not JDK: `javax.annotation.processing` is, `javax.annotation`
 * (JSR-250) is not; `javax.security.auth.login` is, `javax.security.auth.message` (Jakarta) is not.
 */
const JDK_PACKAGES = [
  "javax.accessibility",
  "javax.annotation.processing",
  "javax.rmi.ssl",
  "javax.script",
  "javax.security.auth",
  "javax.security.auth.callback",
  "javax.security.auth.kerberos",
  "javax.security.auth.login",
  "javax.security.auth.spi",
  "javax.security.auth.x500",
  "javax.security.cert",
  "javax.security.sasl",
  "javax.smartcardio",
  "javax.tools",
  "javax.transaction.xa",
  "javax.xml",
  "javax.xml.catalog",
  "javax.xml.datatype",
  "javax.xml.namespace",
  "javax.xml.parsers",
  "javax.xml.validation",
  "javax.xml.xpath",
  "org.ietf.jgss",
];

/** The Kotlin standard library (kotlinx.* are separate libraries: external). */
const KOTLIN_SUBTREES = ["kotlin"];

/**
 * Namespaces of the .NET shared frameworks installed with the runtime (Microsoft.NETCore.App,
 * Microsoft.AspNetCore.App, Microsoft.WindowsDesktop.App). Other `Microsoft.*` namespaces come from NuGet
 * packages (Microsoft.EntityFrameworkCore, Microsoft.Azure.*, Microsoft.Data.SqlClient…): external.
 */
const DOTNET_SUBTREES = [
  "System",
  "Microsoft.Win32",
  "Microsoft.CSharp",
  "Microsoft.VisualBasic",
  "Microsoft.AspNetCore",
  "Microsoft.Extensions",
  "Microsoft.JSInterop",
  "Microsoft.Net.Http.Headers",
];

export type Platform = "java" | "kotlin" | "dotnet";

/** Strips a trailing `.*` (a wildcard import of a package or of a type's members). */
export function importedName(module: string): string {
  return module.endsWith(".*") ? module.slice(0, -2) : module;
}

const SUBTREES: Record<Platform, Set<string>> = {
  java: new Set(JDK_SUBTREES),
  kotlin: new Set([...JDK_SUBTREES, ...KOTLIN_SUBTREES]),
  dotnet: new Set(DOTNET_SUBTREES),
};
const SINGLE_PACKAGES: Record<Platform, Set<string>> = { java: new Set(JDK_PACKAGES), kotlin: new Set(JDK_PACKAGES), dotnet: new Set() };

/**
 * Whether a dotted name is in the platform's standard library: inside one of its package subtrees, or
 * one of its single packages itself or a type (capitalised by convention) or member inside it.
 */
export function isStandardName(name: string, platform: Platform): boolean {
  const subtrees = SUBTREES[platform];
  const single = SINGLE_PACKAGES[platform];
  for (let dot = name.indexOf("."); ; dot = name.indexOf(".", dot + 1)) {
    const prefix = dot < 0 ? name : name.slice(0, dot);
    if (subtrees.has(prefix)) return true;
    if (single.has(prefix) && (dot < 0 || isUpperAscii(name.charCodeAt(dot + 1)))) return true;
    if (dot < 0) return false;
  }
}

const isUpperAscii = (c: number): boolean => c >= 65 && c <= 90;

/**
 * The declared package an imported name belongs to: the longest declared package that is the name itself
 * or a prefix of it. With `parents`, a name that is a parent of declared packages (a C# `using Shop;` or a
 * Java `import com.example.*;` over `com.example.shop`) counts too, returned as the name itself.
 */
export function declaredPackageOf(name: string, project: ProjectInfo, parents: boolean): string | undefined {
  const declared = project.jvmPackages ?? {};
  let candidate = name;
  for (;;) {
    if (Object.hasOwn(declared, candidate)) return candidate;
    const dot = candidate.lastIndexOf(".");
    if (dot < 0) break;
    candidate = candidate.slice(0, dot);
  }
  if (parents) {
    const prefix = name + ".";
    for (const p of Object.keys(declared)) if (p.startsWith(prefix)) return name;
  }
  return undefined;
}

/**
 * Classifies an import. The standard library comes first: .NET libraries routinely declare extension
 * classes inside `System.Linq` or `Microsoft.Extensions.DependencyInjection`, and such a `using` still names
 * the framework namespace. Then the project's own packages (internal: all flags false), else external.
 */
export function classifyManagedImport(
  module: string,
  project: ProjectInfo,
  platform: Platform,
): Pick<ImportFact, "isStandardLib" | "isExternal" | "isRelative"> {
  const name = importedName(module);
  if (isStandardName(name, platform)) return { isStandardLib: true, isExternal: false, isRelative: false };
  // A C# using and a wildcard import name a namespace, which may be a parent of the declared ones.
  const parents = platform === "dotnet" || module.endsWith(".*");
  if (declaredPackageOf(name, project, parents) !== undefined) return { isStandardLib: false, isExternal: false, isRelative: false };
  return { isStandardLib: false, isExternal: true, isRelative: false };
}

/**
 * The project files an import refers to. A type import (`com.shop.Cart`, `Shop.Core.Order`) resolves to
 * the file named after the type in the package's folders when there is one; otherwise (a Kotlin top-level
 * function, a C# namespace, a wildcard, a type in a file of another name) to every file of the package.
 * `extensions` keeps the answer inside the language family (Java and Kotlin see each other; C# alone).
 */
export function resolveManagedImport(imp: ImportFact, files: ProjectFiles, extensions: string[]): string[] {
  const name = importedName(imp.module);
  const pkg = declaredPackageOf(name, files.project, false);
  if (pkg === undefined) return [];
  const dirs = files.project.jvmPackages?.[pkg] ?? [];
  const ofFamily = (p: string) => extensions.some((e) => p.endsWith(e));
  const rest = name.length > pkg.length ? name.slice(pkg.length + 1) : "";
  const typeName = rest.split(".")[0];
  if (typeName) {
    const named: string[] = [];
    for (const dir of dirs) {
      for (const ext of extensions) {
        const path = (dir === "" ? "" : dir + "/") + typeName + ext;
        if (files.has(path)) named.push(path);
      }
    }
    if (named.length > 0) return named;
  }
  const out: string[] = [];
  for (const dir of dirs) for (const p of files.inDir(dir)) if (ofFamily(p)) out.push(p);
  return out.sort();
}
