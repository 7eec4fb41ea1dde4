/**
 * The grammar files, imported as files so `bun build --compile` embeds them in the executable; in
 * development each import resolves to its path under grammars/.
 */
import runtime from "../../grammars/web-tree-sitter.wasm" with { type: "file" };
import goWasm from "../../grammars/tree-sitter-go.wasm" with { type: "file" };
import typescriptWasm from "../../grammars/tree-sitter-typescript.wasm" with { type: "file" };
import tsxWasm from "../../grammars/tree-sitter-tsx.wasm" with { type: "file" };
import javascriptWasm from "../../grammars/tree-sitter-javascript.wasm" with { type: "file" };
import pythonWasm from "../../grammars/tree-sitter-python.wasm" with { type: "file" };
import rustWasm from "../../grammars/tree-sitter-rust.wasm" with { type: "file" };
import javaWasm from "../../grammars/tree-sitter-java.wasm" with { type: "file" };
import cWasm from "../../grammars/tree-sitter-c.wasm" with { type: "file" };
import cppWasm from "../../grammars/tree-sitter-cpp.wasm" with { type: "file" };
import cSharpWasm from "../../grammars/tree-sitter-c_sharp.wasm" with { type: "file" };
import phpWasm from "../../grammars/tree-sitter-php.wasm" with { type: "file" };
import rubyWasm from "../../grammars/tree-sitter-ruby.wasm" with { type: "file" };
import kotlinWasm from "../../grammars/tree-sitter-kotlin.wasm" with { type: "file" };

export const runtimeWasm: string = runtime;

/** grammar file name → path on disk or in the executable's embedded file system */
export const grammarFiles: Record<string, string> = {
  "tree-sitter-go.wasm": goWasm,
  "tree-sitter-typescript.wasm": typescriptWasm,
  "tree-sitter-tsx.wasm": tsxWasm,
  "tree-sitter-javascript.wasm": javascriptWasm,
  "tree-sitter-python.wasm": pythonWasm,
  "tree-sitter-rust.wasm": rustWasm,
  "tree-sitter-java.wasm": javaWasm,
  "tree-sitter-c.wasm": cWasm,
  "tree-sitter-cpp.wasm": cppWasm,
  "tree-sitter-c_sharp.wasm": cSharpWasm,
  "tree-sitter-php.wasm": phpWasm,
  "tree-sitter-ruby.wasm": rubyWasm,
  "tree-sitter-kotlin.wasm": kotlinWasm,
};
