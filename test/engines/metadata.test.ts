import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import { parseManifest } from "../../src/engines/metadata/manifests.ts";
import type { CodebaseMetadata } from "../../src/engines/metadata/index.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { metadataTool } from "../../src/tools/get-codebase-metadata.ts";

let p: TmpProject;
let session: Session;
let meta: CodebaseMetadata;

beforeAll(async () => {
  p = tmpProject({
    "package.json": JSON.stringify({ name: "shop-web", dependencies: { react: "^18.2.0", express: "4.19.2" }, devDependencies: { vitest: "^1.0.0" } }),
    "go.mod": "module example.com/shop\n\ngo 1.21\n\nrequire (\n\tgithub.com/gin-gonic/gin v1.9.1\n\tgithub.com/stretchr/testify v1.8.4 // indirect\n)\n",
    "api/main.go": 'package main\n\nimport "github.com/gin-gonic/gin"\n\nfunc main() { gin.Default() }\n',
    "api/other.go": 'package main\n\nimport (\n\t"fmt"\n\t"github.com/gin-gonic/gin"\n)\n\nfunc other() { fmt.Println(gin.Version) }\n',
    "README.md": "# Shop\n",
  });
  session = new Session(p.root, { autoIndex: true });
  meta = await (await session.metadata()).metadata();
});
afterAll(() => {
  session.close();
  p.cleanup();
});

describe("get_codebase_metadata", () => {
  test("languages with files and code lines, largest first", () => {
    expect(meta.languages.map((l) => [l.language, l.files])).toEqual([
      ["go", 2],
      ["go-module", 1],
      ["json", 1],
      ["markdown", 1],
    ]);
    expect(meta.languages[0]!.code_lines).toBe(3 + 6);
  });

  test("the text's headline counts lines of code in the languages cortex parses, the rest apart", () => {
    const other = meta.statistics.code_lines - 9;
    expect(other).toBeGreaterThan(0);
    expect(metadataTool.render!(meta).split("\n")[1]).toStartWith(`  5 files, 9 lines of code (and ${other} of data, configuration and documentation), `);
  });

  test("frameworks from manifests and from imports, with versions", () => {
    const byName = Object.fromEntries(meta.frameworks.map((f) => [f.name, f]));
    expect(byName.Gin).toEqual({ name: "Gin", category: "web", version: "v1.9.1", evidence: ["go.mod", "imported in 2 files"], importing_files: 2 });
    expect(byName.React!.version).toBe("^18.2.0");
    expect(byName.Vitest!.category).toBe("testing");
    expect(byName.testify!.evidence).toEqual(["go.mod"]);
    expect(meta.frameworks[0]!.name).toBe("Gin");
  });

  test("the project's own package is no framework of it, though its benchmarks depend on it", async () => {
    const q = tmpProject({
      "package.json": JSON.stringify({ name: "hono", version: "4.13.3", devDependencies: { vitest: "^3.0.0" } }),
      "src/hono.ts": "export class Hono {}\n",
      "benchmarks/jsx/package.json": JSON.stringify({ name: "bench-jsx", dependencies: { hono: "^3.10.4", react: "^18.2.0" } }),
      "benchmarks/jsx/index.ts": 'import { Hono } from "hono";\nimport React from "react";\nexport const app = new Hono();\n',
    });
    const s = new Session(q.root, { autoIndex: true });
    try {
      const m = await (await s.metadata()).metadata();
      expect(m.name).toBe("hono");
      expect(m.frameworks.map((f) => f.name).sort()).toEqual(["React", "Vitest"]);
    } finally {
      s.close();
      q.cleanup();
    }
  });

  test("a framework seen only in examples, benchmarks or tests is marked auxiliary and listed last; the project's own manifest gives the version", async () => {
    const q = tmpProject({
      "package.json": JSON.stringify({ name: "router", dependencies: { zod: "^3.23.0" }, devDependencies: { vitest: "^3.0.0" } }),
      "src/router.ts": 'import { z } from "zod";\nexport const schema = z.string();\n',
      "src/router.test.ts": 'import { test } from "vitest";\ntest("x", () => {});\n',
      "examples/express-app/package.json": JSON.stringify({ name: "ex", dependencies: { express: "^4.19.0", zod: "^3.0.0" } }),
      "examples/express-app/index.ts": 'import express from "express";\nimport { z } from "zod";\nexport const app = express();\n',
      "test/fixtures/react-app/page.tsx": 'import React from "react";\nexport const P = () => null;\n',
      "tests/unit/x.test.ts": 'import { describe } from "mocha";\ndescribe("x", () => {});\n',
    });
    const s = new Session(q.root, { autoIndex: true });
    try {
      const m = await (await s.metadata()).metadata();
      const flags = m.frameworks.map((f) => `${f.name}${f.auxiliary ? " (auxiliary)" : ""}${f.version ? ` ${f.version}` : ""}`);
      expect(flags.slice(-2).sort()).toEqual(["Express (auxiliary) ^4.19.0", "React (auxiliary)"]);
      expect(flags).toContain("Zod ^3.23.0");
      expect(flags).toContain("Vitest ^3.0.0");
      // a test framework used in tests is the project's own, though no manifest names it
      expect(flags).toContain("Mocha");
      expect(metadataTool.render!(m)).toContain(
        "Express ^4.19.0 (web; only in examples, benchmarks, tests or docs): examples/express-app/package.json, imported in 1 file",
      );
    } finally {
      s.close();
      q.cleanup();
    }
  });

  test("dependencies with versions and dev flags; manifests summarised; project statistics", () => {
    expect(meta.dependencies.find((d) => d.name === "github.com/stretchr/testify")).toMatchObject({ ecosystem: "go", version: "v1.8.4", dev: true });
    expect(meta.dependencies.find((d) => d.name === "github.com/gin-gonic/gin")).toMatchObject({ importing_files: 2, dev: false });
    expect(meta.manifests).toEqual([
      { path: "go.mod", ecosystem: "go", name: "example.com/shop", dependencies: 1, dev_dependencies: 1 },
      { path: "package.json", ecosystem: "npm", name: "shop-web", dependencies: 2, dev_dependencies: 1 },
    ]);
    expect(meta.statistics).toMatchObject({ files: 5, functions: 2, types: 0, test_files: 0 });
    expect(meta.name).toBe("example.com/shop");
  });
});

describe("manifest parsers", () => {
  test("pyproject, requirements, Cargo, pom, gradle, Gemfile, composer and csproj", () => {
    const names = (path: string, text: string) => parseManifest(path, text)!.dependencies.map((d) => `${d.name}@${d.version ?? ""}${d.dev ? " dev" : ""}`);
    expect(
      names(
        "pyproject.toml",
        '[project]\nname = "x"\ndependencies = ["Django>=4.2", "requests[socks] ~= 2.31 ; python_version>\'3.8\'"]\n[project.optional-dependencies]\ntest = ["pytest>=8"]\n',
      ),
    ).toEqual(["django@>=4.2", "requests@~= 2.31", "pytest@>=8 dev"]);
    expect(names("requirements-dev.txt", "# tools\nblack==24.1\n-r base.txt\nflake8\n")).toEqual(["black@==24.1 dev", "flake8@ dev"]);
    // requirements by URL: named by the egg, else the repository or archive (`#egg=` is no comment)
    expect(
      names(
        "requirements.txt",
        "git+https://github.com/x/y.git#egg=ydist\n-e git+https://github.com/acme/tools.git@v2\nhttps://example.com/pkgs/zlib-1.2.tar.gz  # pinned\nrequests==2.31 # http\n",
      ),
    ).toEqual(["ydist@", "tools@", "zlib@", "requests@==2.31"]);
    expect(
      names(
        "Cargo.toml",
        '[package]\nname="c"\n[dependencies]\nserde = { version = "1.0", features = ["derive"] }\ntokio = "1"\n[dev-dependencies]\nproptest = "1.4"\n',
      ),
    ).toEqual(["serde@1.0", "tokio@1", "proptest@1.4 dev"]);
    // platform-specific dependencies count too
    expect(
      names(
        "Cargo.toml",
        '[package]\nname="c"\n[target.\'cfg(unix)\'.dependencies]\nnix = "0.27"\n[target.\'cfg(windows)\'.dev-dependencies]\nwinapi = "0.3"\n',
      ),
    ).toEqual(["nix@0.27", "winapi@0.3 dev"]);
    expect(
      names(
        "pom.xml",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a fixture file's text, with its own template syntax
        "<project><properties><junit.version>5.10</junit.version></properties><dependencies><dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-web</artifactId><version>3.2.0</version></dependency><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>${junit.version}</version><scope>test</scope></dependency></dependencies></project>",
      ),
    ).toEqual(["org.springframework.boot:spring-boot-starter-web@3.2.0", "org.junit.jupiter:junit-jupiter@5.10 dev"]);
    expect(
      names(
        "app/build.gradle.kts",
        'dependencies {\n  implementation("io.ktor:ktor-server-core:2.3.7")\n  testImplementation("org.junit.jupiter:junit-jupiter:5.10.0")\n}\n',
      ),
    ).toEqual(["io.ktor:ktor-server-core@2.3.7", "org.junit.jupiter:junit-jupiter@5.10.0 dev"]);
    expect(names("Gemfile", "source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\ngroup :test do\n  gem 'rspec-rails'\nend\n")).toEqual([
      "rails@~> 7.1",
      "rspec-rails@ dev",
    ]);
    expect(
      names("composer.json", JSON.stringify({ require: { php: ">=8.2", "laravel/framework": "^11.0" }, "require-dev": { "phpunit/phpunit": "^10" } })),
    ).toEqual(["laravel/framework@^11.0", "phpunit/phpunit@^10 dev"]);
    expect(
      names(
        "src/App/App.csproj",
        '<Project><ItemGroup><PackageReference Include="Microsoft.EntityFrameworkCore" Version="8.0.1" /><PackageReference Include="xunit"><Version>2.6.0</Version></PackageReference></ItemGroup></Project>',
      ),
    ).toEqual(["Microsoft.EntityFrameworkCore@8.0.1", "xunit@2.6.0 dev"]);
  });

  test("a malformed manifest contributes nothing instead of failing", () => {
    expect(parseManifest("package.json", "{oops")).toBeUndefined();
    expect(parseManifest("Cargo.toml", "[[[")).toBeUndefined();
  });
});
