/**
 * The words of a whole file for file-level keyword search, in four fields weighted apart at query time:
 * its path, the names it defines, its comments (docstrings included: what the language module marks as
 * comments) and its code. Separating prose from code and lifting defined names and the path is what the
 * retrieval research measured to help most (docs/benchmarks.md, "Retrieval"). Each field is in the keyword
 * index's compacted form (store/keyword-words.ts).
 */
import type { FileFacts } from "../lang/types.ts";
import type { FileWords } from "../store/types.ts";
import { keywordText } from "../store/keyword-words.ts";

export function fileWords(path: string, text: string, facts: FileFacts | undefined, comments: Array<[number, number]> | undefined): FileWords {
  const names = facts ? [...facts.types, ...facts.functions, ...facts.variables].map((d) => d.name).join(" ") : "";
  let doc = "";
  let code = text;
  if (comments && comments.length > 0) {
    const sorted = [...comments].sort((a, b) => a[0] - b[0]);
    const docParts: string[] = [];
    const codeParts: string[] = [];
    let at = 0;
    for (const [s, e] of sorted) {
      if (s > at) codeParts.push(text.slice(at, s));
      docParts.push(text.slice(Math.max(s, at), e));
      at = Math.max(at, e);
    }
    codeParts.push(text.slice(at));
    doc = docParts.join("\n");
    code = codeParts.join("\n");
  }
  return { path: keywordText(path), defs: keywordText(names), doc: keywordText(doc), code: keywordText(code) };
}
