import { describe, expect, test } from "bun:test";
import { classifyManagedImport, declaredPackageOf, isStandardName, resolveManagedImport } from "../../src/lang/managed-imports.ts";
import { emptyProjectInfo } from "../../src/lang/project.ts";
import type { ProjectFiles } from "../../src/lang/module.ts";

const project = {
  ...emptyProjectInfo(),
  jvmPackages: {
    "com.google.shop": ["shop/src/main/java/com/google/shop"],
    "com.google.shop.util": ["shop/src/main/java/com/google/shop/util", "shop/src/main/kotlin/com/google/shop/util"],
    "Acme.Billing": ["src/Acme.Billing"],
    constructor: ["weird"],
  },
};

const klass = (module: string, platform: "java" | "kotlin" | "dotnet") => {
  const c = classifyManagedImport(module, project, platform);
  return c.isStandardLib ? "std" : c.isExternal ? "external" : c.isRelative ? "relative" : "internal";
};

describe("managed imports: standard libraries are matched as whole packages", () => {
  test("the JDK: java.*, jdk.*, and only the javax / org / com.sun packages that ship with it", () => {
    expect(isStandardName("java.util.List", "java")).toBe(true);
    expect(isStandardName("jdk.incubator.vector.IntVector", "java")).toBe(true);
    expect(isStandardName("javax.swing.JFrame", "java")).toBe(true);
    expect(isStandardName("javax.xml.XMLConstants", "java")).toBe(true);
    expect(isStandardName("javax.xml.parsers.DocumentBuilder", "java")).toBe(true);
    expect(isStandardName("javax.annotation.processing.Processor", "java")).toBe(true);
    expect(isStandardName("org.w3c.dom.Node", "java")).toBe(true);
    expect(isStandardName("com.sun.net.httpserver.HttpServer", "java")).toBe(true);
    // removed from the JDK (JAXB, JSR-250) or never in it (Jakarta EE, javax.inject)
    expect(isStandardName("javax.xml.bind.JAXBContext", "java")).toBe(false);
    expect(isStandardName("javax.annotation.PostConstruct", "java")).toBe(false);
    expect(isStandardName("javax.servlet.http.HttpServlet", "java")).toBe(false);
    expect(isStandardName("javax.inject.Inject", "java")).toBe(false);
    expect(isStandardName("javax.security.auth.message.AuthStatus", "java")).toBe(false);
    expect(isStandardName("com.sun.jersey.api.client.Client", "java")).toBe(false);
    expect(isStandardName("javaxyz.Thing", "java")).toBe(false);
  });

  test("Kotlin adds its standard library; kotlinx is a separate library", () => {
    expect(isStandardName("kotlin.collections.List", "kotlin")).toBe(true);
    expect(isStandardName("java.time.Instant", "kotlin")).toBe(true);
    expect(isStandardName("kotlinx.coroutines.flow.Flow", "kotlin")).toBe(false);
    expect(isStandardName("kotlin.collections.List", "java")).toBe(false);
  });

  test(".NET: System.* and the namespaces of the shared frameworks; other Microsoft.* come from NuGet", () => {
    expect(isStandardName("System", "dotnet")).toBe(true);
    expect(isStandardName("System.Collections.Generic", "dotnet")).toBe(true);
    expect(isStandardName("Microsoft.Extensions.Logging", "dotnet")).toBe(true);
    expect(isStandardName("Microsoft.AspNetCore.Mvc", "dotnet")).toBe(true);
    expect(isStandardName("Microsoft.Win32", "dotnet")).toBe(true);
    expect(isStandardName("Microsoft.EntityFrameworkCore", "dotnet")).toBe(false);
    expect(isStandardName("Microsoft.Azure.Cosmos", "dotnet")).toBe(false);
    expect(isStandardName("SystemX.Text", "dotnet")).toBe(false);
  });
});

describe("managed imports: the project's own packages", () => {
  test("a declared package and the types in it are internal; a neighbour sharing a prefix is not", () => {
    expect(klass("com.google.shop.Cart", "java")).toBe("internal");
    expect(klass("com.google.shop.util.Strings.trim", "java")).toBe("internal");
    expect(klass("com.google.common.collect.ImmutableList", "java")).toBe("external");
    expect(klass("com.google.*", "java")).toBe("internal"); // a wildcard over a parent of declared packages
    expect(klass("com.google", "java")).toBe("external");
    expect(klass("Acme", "dotnet")).toBe("internal"); // a C# using names a namespace, parents included
    expect(klass("Acme.Billing.Invoice", "dotnet")).toBe("internal");
    expect(klass("AcmeCorp.Billing", "dotnet")).toBe("external");
  });

  test("the standard library wins over a project that declares into its namespaces", () => {
    const p = { ...project, jvmPackages: { ...project.jvmPackages, "System.Linq": ["src/Extensions"] } };
    expect(classifyManagedImport("System.Linq", p, "dotnet").isStandardLib).toBe(true);
  });

  test("package names are data, not object keys with inherited meaning", () => {
    expect(declaredPackageOf("constructor.Thing", project, false)).toBe("constructor");
    expect(declaredPackageOf("toString.Thing", project, false)).toBeUndefined();
    expect(declaredPackageOf("hasOwnProperty", { ...emptyProjectInfo(), jvmPackages: {} }, true)).toBeUndefined();
  });

  test("a project that declares no package (or an index written before jvmPackages existed) has no internal imports", () => {
    expect(emptyProjectInfo().jvmPackages).toBeUndefined();
    expect(classifyManagedImport("com.acme.Thing", emptyProjectInfo(), "java").isExternal).toBe(true);
    expect(classifyManagedImport("java.util.List", emptyProjectInfo(), "java").isStandardLib).toBe(true);
  });

  test("resolution stays in the language family and prefers the file named after the type", () => {
    const all: [string, string, string, string, string] = [
      "shop/src/main/java/com/google/shop/util/Strings.java",
      "shop/src/main/java/com/google/shop/util/Numbers.java",
      "shop/src/main/java/com/google/shop/util/README.md",
      "shop/src/main/kotlin/com/google/shop/util/Text.kt",
      "src/Acme.Billing/Invoice.cs",
    ];
    const files: ProjectFiles = {
      project,
      has: (p) => all.includes(p),
      inDir: (d) => all.filter((p) => p.slice(0, p.lastIndexOf("/")) === d),
    };
    const imp = { module: "", isStandardLib: false, isExternal: false, isRelative: false, symbols: [], line: 1, column: 1 };
    expect(resolveManagedImport({ ...imp, module: "com.google.shop.util.Strings" }, files, [".java", ".kt"])).toEqual([all[0]]);
    // a Kotlin top-level function: no file of that name, so every file of the package
    expect(resolveManagedImport({ ...imp, module: "com.google.shop.util.slugify" }, files, [".kt", ".java"])).toEqual([all[1], all[0], all[3]]);
    expect(resolveManagedImport({ ...imp, module: "com.google.shop.util.*" }, files, [".java"])).toEqual([all[1], all[0]]);
    expect(resolveManagedImport({ ...imp, module: "Acme.Billing" }, files, [".cs"])).toEqual([all[4]]);
    expect(resolveManagedImport({ ...imp, module: "Acme" }, files, [".cs"])).toEqual([]);
    expect(resolveManagedImport({ ...imp, module: "java.util.List" }, files, [".java"])).toEqual([]);
  });
});
