#!/usr/bin/env bun
/** Writes docs/tools.md from the tool registry. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { toolsMarkdown } from "../src/tools/docs.ts";

writeFileSync(join(import.meta.dir, "..", "docs", "tools.md"), toolsMarkdown());
console.log("wrote docs/tools.md");
