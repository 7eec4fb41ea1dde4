/**
 * JavaScript (.js, .mjs, .cjs) and JSX: the shared ECMAScript extractor over tree-sitter-javascript, which
 * parses JSX in both; .jsx files get their own language id so statistics can tell them apart.
 */
import { ecmaModule } from "./ecmascript.ts";

export const javascript = ecmaModule({
  id: "javascript",
  extensions: [".js", ".mjs", ".cjs"],
  grammar: "tree-sitter-javascript.wasm",
  typed: false,
  jsx: true,
});

export const jsx = ecmaModule({
  id: "jsx",
  extensions: [".jsx"],
  grammar: "tree-sitter-javascript.wasm",
  typed: false,
  jsx: true,
  dialectOf: "javascript",
});
