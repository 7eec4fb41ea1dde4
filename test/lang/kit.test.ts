import { expect, test } from "bun:test";
import { countLines } from "../../src/lang/kit.ts";

/** Comment ranges of C-like source, found the simple way (the parser gives them from the syntax tree). */
function commentsOf(source: string): Array<[number, number]> {
  return [...source.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => [m.index!, m.index! + m[0].length]);
}

test("a line is code when anything outside a comment is on it, wherever the comment is", () => {
  const source = [
    "x := 1 // trailing comment", // code
    "/* leading */ y := 2", // code: after the comment
    "/* only */ /* comments */", // comment
    "   ", // blank
    "/* a block", // comment
    "", // blank, inside the block
    "   still the block */   z()", // code after the block ends
    "\t// indented", // comment
    "w", // code, no newline at the end
  ].join("\n");
  expect(countLines(source, commentsOf(source))).toEqual({ total: 9, code: 4, comment: 3, blank: 2 });
  // comment ranges in any order; CRLF and a BOM are whitespace
  const crlf = "\ufeffa\r\n// b\r\n\r\n";
  expect(countLines(crlf, commentsOf(crlf).reverse())).toEqual({ total: 3, code: 1, comment: 1, blank: 1 });
});
