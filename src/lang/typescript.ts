/**
 * TypeScript (.ts, .mts, .cts, declaration files included) and TSX: the shared ECMAScript extractor over
 * the tree-sitter-typescript grammars, which add interfaces, enums, type aliases, namespaces and types.
 */
import { ecmaModule } from "./ecmascript.ts";

export const typescript = ecmaModule({
  id: "typescript",
  extensions: [".ts", ".mts", ".cts"],
  grammar: "tree-sitter-typescript.wasm",
  typed: true,
  jsx: false,
});

export const tsx = ecmaModule({
  id: "tsx",
  extensions: [".tsx"],
  grammar: "tree-sitter-tsx.wasm",
  typed: true,
  jsx: true,
  dialectOf: "typescript",
});
