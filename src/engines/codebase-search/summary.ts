/**
 * One line that says what a file is: the first sentence of its header comment or module docstring when it
 * has one (most well-kept files do), else what it defines. Read from the stored content, so it costs no
 * parse.
 */

const MAX = 200;

/**
 * The first sentence of the comment or docstring that opens a file (after shebang, package and imports);
 * a licence header is passed over for the comment after it (Go's package comment below a copyright).
 */
export function headerComment(text: string): string | undefined {
  const lines = text.split("\n", 80);
  let i = 0;
  for (let blocks = 0; blocks < 3; blocks++) {
    while (i < lines.length && SKIP.test(lines[i]!)) i++;
    const block = commentAt(lines, i);
    if (!block) return undefined;
    // a licence's lines are passed over; a block that was only a licence gives way to the next comment
    const sentence = firstSentence(block.body.filter((l) => !LICENCE.test(l)));
    if (sentence && !LICENCE_TERMS.test(sentence)) return sentence;
    i = block.end + 1;
  }
  return undefined;
}

/** Lines before a file's opening comment: blank, shebang, package, imports, encodings. */
const SKIP =
  /^\s*$|^#!|^\s*(package|import|from|using|use|require|namespace|module)\b|^\s*['"]use strict['"]|^\s*<\?php|^\s*@file:|^\s*#\s*(-\*-|frozen_string_literal|encoding|pragma|include)/;

/** A licence header's lines: `Copyright 2014 …`, `Use of this source code is governed by a MIT style`, `license that …`, SPDX tags. */
const LICENCE = /\bcopyright\b|\(c\)|\blicen[cs]e[ds]?\b|\bspdx-|all rights reserved|\bgoverned by\b/i;
/** What is left of a licence once its licence lines are out: Apache's `Unless required by applicable law … WITHOUT WARRANTIES`. */
const LICENCE_TERMS = /\bwarrant(y|ies)\b|applicable law|\bas is\b|free software|redistribut/i;

/** The comment or docstring that starts on line i: its lines without markers, and its last line. */
function commentAt(lines: string[], i: number): { body: string[]; end: number } | undefined {
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
      if (l.endsWith("*/")) return { body, end: j };
    }
    return { body, end: lines.length - 1 };
  }
  if (/^("""|''')/.test(first)) {
    const q = first.slice(0, 3);
    const rest = first.slice(3);
    if (rest.includes(q)) return { body: [rest.slice(0, rest.indexOf(q))], end: i };
    body.push(rest);
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!.trim();
      if (l.includes(q)) {
        body.push(l.slice(0, l.indexOf(q)));
        return { body, end: j };
      }
      body.push(l);
    }
    return { body, end: lines.length - 1 };
  }
  if (/^(\/\/|#|--|;)/.test(first)) {
    const marker = /^(\/\/[/!]?|#|--|;+)/.exec(first)![1]!;
    let j = i;
    for (; j < lines.length && lines[j]!.trim().startsWith(marker); j++) body.push(lines[j]!.trim().slice(marker.length).trim());
    return { body, end: j - 1 };
  }
  return undefined;
}

function firstSentence(lines: string[]): string | undefined {
  const text = lines
    .map((l) => l.trim())
    .filter((l) => !/^(@|\(c\))/i.test(l))
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
