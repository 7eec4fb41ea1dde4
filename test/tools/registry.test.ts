import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TOOLS } from "../../src/tools/index.ts";
import { toolsMarkdown } from "../../src/tools/docs.ts";
import { exposedInput } from "../../src/tools/invoke.ts";

describe("the tool registry", () => {
  test("names are unique, valid MCP tool names, and CLI commands are unique", () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z][a-z0-9_]{2,63}$/);
    const commands = TOOLS.map((t) => t.cli.command.join(" "));
    expect(new Set(commands).size).toBe(commands.length);
  });

  test("every input field is described and every tool has a limit or bounded output", () => {
    for (const t of TOOLS) {
      for (const [field, schema] of Object.entries(exposedInput(t).shape)) {
        expect(`${t.name}.${field}: ${(schema as { description?: string }).description ? "described" : "missing"}`).toBe(`${t.name}.${field}: described`);
      }
      expect(t.description.length).toBeGreaterThan(80);
    }
  });

  test("each tool's example is accepted by its own schema, and positionals name real fields", () => {
    for (const t of TOOLS) {
      expect(t.input.safeParse(t.example).success).toBe(true);
      for (const p of t.cli.positionals ?? []) expect(Object.keys(t.input.shape)).toContain(p);
      // a short flag may preset a value: "-i" → "case_sensitive=false"
      // …and a flag may name a field of an object field: "--lang" → "filters.language"
      for (const f of Object.values({ ...t.cli.flags, ...t.cli.short })) {
        const [field, inner] = f.split("=")[0]!.split(".");
        expect(Object.keys(t.input.shape)).toContain(field!);
        if (inner) {
          let s: any = t.input.shape[field!];
          while (s?.def?.innerType) s = s.def.innerType;
          expect(Object.keys(s.def.shape)).toContain(inner);
        }
      }
    }
  });

  test("read-only tools say so", () => {
    const readOnly = TOOLS.filter((t) => t.annotations.readOnlyHint);
    expect(readOnly.length).toBeGreaterThan(0);
    for (const t of readOnly) expect(t.annotations.destructiveHint).toBe(false);
  });

  test("docs/tools.md is what the registry generates (run: bun scripts/gen-docs.ts)", () => {
    const committed = readFileSync(join(import.meta.dir, "../../docs/tools.md"), "utf8");
    expect(committed).toBe(toolsMarkdown());
  });
});
