/** Rule categories, recognised from headings and from the words of a rule. */

export const STYLE_CATEGORIES = [
  "formatting",
  "naming",
  "imports",
  "testing",
  "errors",
  "types",
  "documentation",
  "git",
  "architecture",
  "security",
  "performance",
  "dependencies",
  "general",
] as const;
export type StyleCategory = (typeof STYLE_CATEGORIES)[number];

const KEYWORDS: Array<[StyleCategory, RegExp]> = [
  ["testing", /\b(tests?|testing|spec|mocks?|fixtures?|coverage|assert\w*|pytest|jest|vitest|junit)\b/i],
  ["git", /\b(commits?|branch(es)?|pull requests?|PRs?|merge|rebase|changelog|conventional)\b/i],
  ["naming", /\b(nam(e|es|ing)|camel ?case|snake[_ ]case|pascal ?case|kebab|prefix|suffix|identifiers?)\b/i],
  [
    "formatting",
    /\b(indent\w*|spaces?|tabs?|line length|max[_-]?line|width|quotes?|semicolons?|trailing|whitespace|format\w*|prettier|black|gofmt|rustfmt|brace)\b/i,
  ],
  ["imports", /\b(imports?|require|includes?|modules? order|barrel)\b/i],
  ["errors", /\b(errors?|exceptions?|panics?|throw\w*|raise|catch|rescue|logging|log)\b/i],
  ["types", /\b(types?|typing|any|generics?|interfaces?|strict|null(able)?|undefined|optional)\b/i],
  ["documentation", /\b(docs?|documentation|comments?|docstrings?|jsdoc|readme)\b/i],
  ["security", /\b(secrets?|passwords?|tokens?|credentials|injection|sanitiz\w*|escap\w*|auth\w*|security)\b/i],
  ["performance", /\b(performance|fast|slow|alloc\w*|cache|benchmark\w*|latency|memory)\b/i],
  ["dependencies", /\b(dependenc(y|ies)|packages?|librar(y|ies)|versions?|npm|pip|cargo|vendor)\b/i],
  ["architecture", /\b(architecture|layers?|modules?|services?|adr|decision|design|boundar(y|ies)|patterns?)\b/i],
];

export function categorize(...texts: string[]): StyleCategory {
  const text = texts.join(" ");
  for (const [cat, re] of KEYWORDS) if (re.test(text)) return cat;
  return "general";
}
