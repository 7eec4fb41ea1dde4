/**
 * A parser of JavaScript regular expressions into the small tree the trigram planner reads. It runs only
 * on patterns the JavaScript engine already accepted, and it is conservative by construction: whatever it
 * does not fully understand becomes "some unknown text" (possibly empty), which the planner can only
 * weaken into more candidate files, never fewer. So a gap here costs speed, never a missed match.
 */

export type RegexNode =
  /** Matches exactly one character, one of `chars` (code points as strings), or any character when null. */
  | { type: "char"; chars: string[] | null }
  | { type: "concat"; items: RegexNode[] }
  | { type: "alt"; items: RegexNode[] }
  | { type: "repeat"; item: RegexNode; min: number; max: number }
  /** Zero-width: anchors, word boundaries, lookarounds. */
  | { type: "assert" }
  /** Any text, possibly empty: backreferences and constructs the parser does not model. */
  | { type: "unknown" };

export interface ParsedRegex {
  root: RegexNode;
  /** Lookarounds see past the current line when a whole file is matched at once. */
  hasLookaround: boolean;
}

/** Largest character class expanded into its members; larger ones count as "any character". */
const MAX_CLASS = 16;
const SYNTAX = new Set(["^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/"]);

const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;

class Parser {
  private i = 0;
  hasLookaround = false;

  constructor(
    private readonly src: string,
    private readonly unicode: boolean,
  ) {}

  parse(): RegexNode {
    const node = this.disjunction();
    if (this.i < this.src.length) throw new Error(`unexpected '${this.src[this.i]}' at ${this.i}`);
    return node;
  }

  private peek(k = 0): string | undefined {
    return this.src[this.i + k];
  }

  private disjunction(): RegexNode {
    const items = [this.alternative()];
    while (this.peek() === "|") {
      this.i++;
      items.push(this.alternative());
    }
    return items.length === 1 ? items[0]! : { type: "alt", items };
  }

  private alternative(): RegexNode {
    const items: RegexNode[] = [];
    while (this.i < this.src.length && this.peek() !== "|" && this.peek() !== ")") items.push(this.term());
    return { type: "concat", items };
  }

  private term(): RegexNode {
    const atom = this.atom();
    return this.quantified(atom);
  }

  /** A quantifier after an atom, if any (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each optionally lazy). */
  private quantified(atom: RegexNode): RegexNode {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return atom; // a literal '{' (non-unicode mode): the atom stands alone
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (this.peek() === "?") this.i++;
    if (!Number.isSafeInteger(min)) return { type: "unknown" };
    return { type: "repeat", item: atom, min, max };
  }

  private atom(): RegexNode {
    const c = this.peek()!;
    switch (c) {
      case "^":
      case "$":
        this.i++;
        return { type: "assert" };
      case ".":
        this.i++;
        return { type: "char", chars: null };
      case "(":
        return this.group();
      case "[":
        return this.charClass();
      case "\\":
        return this.escape();
      default: {
        // '{' that is not a quantifier, '}' and ']' are literals outside unicode mode
        const cp = this.src.codePointAt(this.i)!;
        const len = cp > 0xffff ? 2 : 1;
        this.i += len;
        if (isSurrogate(cp) || (!this.unicode && len === 2)) return this.surrogateAtom(len);
        return { type: "char", chars: [String.fromCodePoint(cp)] };
      }
    }
  }

  /** Astral characters outside unicode mode are two code units a quantifier may split: modelled as unknown characters. */
  private surrogateAtom(len: number): RegexNode {
    if (len === 1) return { type: "char", chars: null };
    // the first half stands alone; the second half is the atom a quantifier would apply to
    return { type: "concat", items: [{ type: "char", chars: null }, this.quantified({ type: "char", chars: null })] };
  }

  private group(): RegexNode {
    this.i++; // (
    let kind: "capture" | "plain" | "look" | "modifiers" = "capture";
    const rest = this.src.slice(this.i, this.i + 3);
    if (rest.startsWith("?:")) {
      kind = "plain";
      this.i += 2;
    } else if (rest.startsWith("?=") || rest.startsWith("?!")) {
      kind = "look";
      this.i += 2;
    } else if (rest.startsWith("?<=") || rest.startsWith("?<!")) {
      kind = "look";
      this.i += 3;
    } else if (rest.startsWith("?<")) {
      const end = this.src.indexOf(">", this.i);
      if (end < 0) throw new Error("unterminated group name");
      this.i = end + 1;
    } else if (rest.startsWith("?")) {
      // (?ims-ims: ... ) modifiers change how the contents match
      const m = /^\?[a-zA-Z]*(-[a-zA-Z]*)?:/.exec(this.src.slice(this.i));
      if (!m) throw new Error(`unsupported group at ${this.i}`);
      kind = "modifiers";
      this.i += m[0].length;
    }
    const inner = this.disjunction();
    if (this.peek() !== ")") throw new Error("missing )");
    this.i++;
    if (kind === "look") {
      this.hasLookaround = true;
      return { type: "assert" };
    }
    if (kind === "modifiers") return { type: "unknown" };
    return inner;
  }

  private escape(): RegexNode {
    this.i++; // backslash
    const c = this.peek();
    if (c === undefined) throw new Error("\\ at end of pattern");
    this.i++;
    switch (c) {
      case "b":
      case "B":
        return { type: "assert" };
      case "d":
      case "D":
      case "w":
      case "W":
      case "s":
      case "S":
        return { type: "char", chars: null };
      case "p":
      case "P":
        if (this.unicode && this.peek() === "{") {
          const end = this.src.indexOf("}", this.i);
          if (end < 0) throw new Error("unterminated \\p{");
          this.i = end + 1;
        }
        return { type: "char", chars: null }; // a property class, or the letter p outside unicode mode
      case "k":
        if (this.peek() === "<") {
          const end = this.src.indexOf(">", this.i);
          if (end >= 0) this.i = end + 1;
        }
        return { type: "unknown" }; // a named backreference (or literal text outside unicode mode)
      default: {
        if (c >= "1" && c <= "9") {
          while (this.peek() !== undefined && this.peek()! >= "0" && this.peek()! <= "9") this.i++;
          return { type: "unknown" }; // a backreference (or an octal escape outside unicode mode)
        }
        const cp = this.escapedChar(c);
        return cp === undefined ? { type: "unknown" } : { type: "char", chars: cp === null ? null : [String.fromCodePoint(cp)] };
      }
    }
  }

  /**
   * The character of a character escape (after the backslash and `c`, which is consumed): a code point,
   * null for "exactly one character, not modelled", undefined for "not modelled at all".
   */
  private escapedChar(c: string): number | null | undefined {
    switch (c) {
      case "n":
        return 10;
      case "r":
        return 13;
      case "t":
        return 9;
      case "v":
        return 11;
      case "f":
        return 12;
      case "0":
        if (this.peek() !== undefined && this.peek()! >= "0" && this.peek()! <= "9") {
          while (this.peek() !== undefined && this.peek()! >= "0" && this.peek()! <= "7") this.i++;
          return null; // an octal escape
        }
        return 0;
      case "c": {
        const l = this.peek();
        if (l !== undefined && /[a-zA-Z]/.test(l)) {
          this.i++;
          return l.charCodeAt(0) % 32;
        }
        return undefined; // Annex B: a backslash and a 'c' taken literally
      }
      case "x":
        if (isHex(this.peek()) && isHex(this.peek(1))) {
          const v = parseInt(this.src.slice(this.i, this.i + 2), 16);
          this.i += 2;
          return v;
        }
        return null; // the letter x outside unicode mode
      case "u": {
        if (this.unicode && this.peek() === "{") {
          const end = this.src.indexOf("}", this.i);
          if (end < 0) throw new Error("unterminated \\u{");
          const v = parseInt(this.src.slice(this.i + 1, end), 16);
          this.i = end + 1;
          return Number.isFinite(v) && !isSurrogate(v) ? v : null;
        }
        if ([0, 1, 2, 3].every((k) => isHex(this.peek(k)))) {
          const v = parseInt(this.src.slice(this.i, this.i + 4), 16);
          this.i += 4;
          if (isSurrogate(v)) {
            // a pair of \u escapes is one astral character in unicode mode
            if (this.unicode && this.peek() === "\\" && this.peek(1) === "u" && [2, 3, 4, 5].every((k) => isHex(this.peek(k)))) this.i += 6;
            return null;
          }
          return v;
        }
        return null; // the letter u outside unicode mode
      }
      default: {
        const cp = this.src.codePointAt(this.i - 1)!;
        if (cp > 0xffff) this.i++;
        if (SYNTAX.has(c) || c === "-") return cp;
        // identity escapes of other characters (outside unicode mode): exactly that character, unmodelled
        return null;
      }
    }
  }

  /** A character class: its members when small and fully known, otherwise "any character". */
  private charClass(): RegexNode {
    this.i++; // [
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.i++;
    }
    const members = new Set<number>();
    let unknown = negated;
    while (this.peek() !== "]") {
      if (this.i >= this.src.length) throw new Error("unterminated character class");
      const lo = this.classAtom();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
        this.i++;
        const hi = this.classAtom();
        if (lo === null || hi === null || hi < lo || hi - lo + 1 > MAX_CLASS) unknown = true;
        else for (let v = lo; v <= hi; v++) members.add(v);
        continue;
      }
      if (lo === null) unknown = true;
      else members.add(lo);
    }
    this.i++; // ]
    if (unknown || members.size > MAX_CLASS || members.size === 0) return { type: "char", chars: null };
    for (const v of members) if (isSurrogate(v)) return { type: "char", chars: null };
    return { type: "char", chars: [...members].map((v) => String.fromCodePoint(v)) };
  }

  /** One class member: its code point, or null for an escape that stands for many characters. */
  private classAtom(): number | null {
    const c = this.peek()!;
    if (c !== "\\") {
      const cp = this.src.codePointAt(this.i)!;
      this.i += cp > 0xffff ? 2 : 1;
      if (!this.unicode && cp > 0xffff) return null;
      return cp;
    }
    this.i++;
    const e = this.peek();
    if (e === undefined) throw new Error("\\ at end of pattern");
    this.i++;
    if ("dDwWsS".includes(e)) return null;
    if (e === "p" || e === "P") {
      if (this.unicode && this.peek() === "{") {
        const end = this.src.indexOf("}", this.i);
        if (end < 0) throw new Error("unterminated \\p{");
        this.i = end + 1;
        return null;
      }
      return null;
    }
    if (e === "b") return 8; // backspace inside a class
    if (e === "-") return 45;
    if (e >= "1" && e <= "9") {
      while (this.peek() !== undefined && this.peek()! >= "0" && this.peek()! <= "9") this.i++;
      return null; // octal escapes outside unicode mode
    }
    const v = this.escapedChar(e);
    return v === undefined || v === null ? null : v;
  }
}

/** Parses a pattern the JavaScript engine accepted with the given unicode-ness. Throws on syntax it cannot follow. */
export function parseRegex(source: string, unicode: boolean): ParsedRegex {
  const p = new Parser(source, unicode);
  const root = p.parse();
  return { root, hasLookaround: p.hasLookaround };
}

/** The pattern text matching `s` literally (valid with and without the u flag). */
export function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}
