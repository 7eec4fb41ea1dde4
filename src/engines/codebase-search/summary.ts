/**
 * One line that says what a file is: the first sentence of its header comment or module docstring when it
 * has one (most well-kept files do), else what it defines. Read from the stored content, so it costs no
 * parse.
 */

const MAX = 200;

/** The first sentence of the comment or docstring that opens a file (after shebang, package and imports). */
export function headerComment(text: string): string | undefined {
  const lines = text.split("\n", 60);
  let i = 0;
  const skip =
    /^\s*$|^#!|^\s*(package|import|from|using|use|require|namespace|module)\b|^\s*['"]use strict['"]|^\s*<\?php|^\s*@file:|^\s*#\s*(-\*-|frozen_string_literal|encoding|pragma|include)/;
  while (i < lines.length && skip.test(lines[i]!)) i++;
  const first = lines[i]?.trim() ?? "";
  const body: string[] = [];
  if (first.startsWith("/*")) {
    for (let j = i; j < lines.length; j++) {
      const l = lines[j]!.trim();
      body.push(
        l
          .replace(/^\/\*+!?/, "")
          .replace(/\*+\/$/, "")
          .replace(/^\*+\s?/, ""),
      );
      if (l.endsWith("*/")) break;
    }
  } else if (/^("""|''')/.test(first)) {
    const q = first.slice(0, 3);
    const rest = first.slice(3);
    if (rest.includes(q)) body.push(rest.slice(0, rest.indexOf(q)));
    else {
      body.push(rest);
      for (let j = i + 1; j < lines.length; j++) {
        const l = lines[j]!.trim();
        if (l.includes(q)) {
          body.push(l.slice(0, l.indexOf(q)));
          break;
        }
        body.push(l);
      }
    }
  } else if (/^(\/\/|#|--|;)/.test(first)) {
    const marker = /^(\/\/[/!]?|#|--|;+)/.exec(first)![1]!;
    for (let j = i; j < lines.length && lines[j]!.trim().startsWith(marker); j++) body.push(lines[j]!.trim().slice(marker.length).trim());
  } else return undefined;
  return firstSentence(body);
}

function firstSentence(lines: string[]): string | undefined {
  const text = lines
    .map((l) => l.trim())
    .filter((l) => !/^(copyright|license|spdx|@|\(c\)|all rights reserved)/i.test(l))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (text.length < 8) return undefined;
  const end = text.search(/[.!?](\s|$)/);
  const sentence = end > 0 ? text.slice(0, end + 1) : text;
  return sentence.length > MAX ? sentence.slice(0, MAX - 1) + "…" : sentence;
}

/** What a file defines, when it has no header comment: "defines UserService, login, logout (+4 more)". */
export function definesLine(names: string[]): string | undefined {
  if (names.length === 0) return undefined;
  const shown = names.slice(0, 4).join(", ");
  return `defines ${shown}${names.length > 4 ? ` (+${names.length - 4} more)` : ""}`;
}
