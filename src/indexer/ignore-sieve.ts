/**
 * A quick "could any rule of this ignore file decide this path?" in front of the `ignore` package's own
 * test, which runs every rule's regular expression against every path. Most paths of a walk match no rule,
 * and on the Linux kernel (306 .gitignore files, 93 rules at the root) that test was 0.55 s of the walk's
 * 1.3 s, most of a no-op re-index. The sieve answers with string comparisons on the literal parts of the
 * patterns and may say yes too often (the package then decides, as before), never too rarely: a path it
 * rules out is one no rule of the file matches, ignoring or re-including. A pattern it cannot read with
 * certainty (spaces, characters beyond ASCII, a `**` inside a name, an escape of anything but a wildcard,
 * `#` or `!`) makes it always say yes.
 */

/**
 * The literal parts of one name's pattern (a file's or a folder's name), in lower case and compared with
 * names in lower case: right whether the repository's rules ignore case or not (ignore-rules.ts).
 */
interface NameGlob {
  /** The literal text before the first wildcard. */
  head: string;
  /** The literal text after the last wildcard. */
  tail: string;
  /** The literal runs between wildcards, each of which must occur in the name (in order; checked loosely). */
  middle: string[];
  /** The pattern has no wildcard: the name must equal head. */
  exact: boolean;
}

export class IgnoreSieve {
  private constructor(
    /** Rules with no slash inside: they match a path by its last name, at any depth. */
    private readonly names: GlobSet,
    /** Rules relative to the ignore file's folder with one name (`/vmlinux`): they match by a path's first name. */
    private readonly firstNames: GlobSet,
    /**
     * The other rules relative to the ignore file's folder, each as the globs of its names before any `**`:
     * a path it matches has at least as many names, and its first ones fit them.
     */
    private readonly anchored: NameGlob[][],
  ) {}

  /** The sieve of a rule list (comments and blank lines already dropped); undefined when a pattern is beyond it. */
  static of(patterns: readonly string[]): IgnoreSieve | undefined {
    const names = new GlobSet();
    const firstNames = new GlobSet();
    const anchored: NameGlob[][] = [];
    for (const raw of patterns) {
      let p = raw.startsWith("!") ? raw.slice(1) : raw;
      // whitespace (trimmed or kept by rules of their own), non-ASCII case folding, escapes of other
      // characters: the package's reading of these is not worth repeating here
      if (!/^[\x21-\x7e]+$/.test(p) || /\\(?![#!*?[\]])/.test(p)) return undefined;
      p = p.toLowerCase();
      if (p.endsWith("/")) p = p.slice(0, -1); // folders only: matches no more than without the slash
      if (p.startsWith("**/") && !p.slice(3).includes("/")) p = p.slice(3); // a name at any depth, as without
      if (p === "" || p === "/") return undefined; // `/`, `!`: whatever the package makes of them
      if (!p.includes("/")) {
        const glob = p.includes("**") ? undefined : globOf(p); // `a**b` may reach across folders
        if (glob === undefined) return undefined;
        names.add(glob);
        continue;
      }
      const globs: NameGlob[] = [];
      for (const name of p.replace(/^\//, "").split("/")) {
        if (name === "**") break;
        const glob = name.includes("**") ? undefined : globOf(name);
        if (glob === undefined) return undefined;
        globs.push(glob);
      }
      if (globs.length === 1) firstNames.add(globs[0]!);
      else anchored.push(globs);
    }
    return new IgnoreSieve(names, firstNames, anchored);
  }

  /**
   * False only when no rule can match `sub` (relative to the ignore file's folder, no trailing slash) by
   * its name or its path. The folders above it need no look: the stack asks each rule set about the path
   * alone (ignore-rules.ts ownTest), and the walk never asks about a path under a folder left out.
   */
  mayMatch(sub: string): boolean {
    const slash = sub.lastIndexOf("/");
    const name = (slash < 0 ? sub : sub.slice(slash + 1)).toLowerCase();
    if (this.names.mayHold(name)) return true;
    if (this.firstNames.size === 0 && this.anchored.length === 0) return false;
    const path = sub.toLowerCase().split("/");
    if (this.firstNames.mayHold(path[0]!)) return true;
    for (const globs of this.anchored) {
      if (path.length < globs.length) continue;
      let all = true;
      for (let i = 0; all && i < globs.length; i++) all = fits(globs[i]!, path[i]!);
      if (all) return true;
    }
    return false;
  }
}

/**
 * Name globs, sorted so that a name is compared with few of them: exact names in a set, the others by the
 * last character of their literal end, or else by the first of their literal start.
 */
class GlobSet {
  private readonly exact = new Set<string>();
  private readonly byLast = new Map<string, NameGlob[]>();
  private readonly byFirst = new Map<string, NameGlob[]>();
  /** Globs with no literal start or end (`*.c.[012]*.*`). */
  private readonly loose: NameGlob[] = [];
  size = 0;

  add(g: NameGlob): void {
    this.size++;
    if (g.exact) this.exact.add(g.head);
    else if (g.tail !== "") push(this.byLast, g.tail[g.tail.length - 1]!, g);
    else if (g.head !== "") push(this.byFirst, g.head[0]!, g);
    else this.loose.push(g);
  }

  /** Whether some glob may fit `name` (lower case). */
  mayHold(name: string): boolean {
    if (this.size === 0) return false;
    if (this.exact.has(name)) return true;
    return anyFits(this.byLast.get(name[name.length - 1]!), name) || anyFits(this.byFirst.get(name[0]!), name) || anyFits(this.loose, name);
  }
}

function push(map: Map<string, NameGlob[]>, key: string, g: NameGlob): void {
  const list = map.get(key);
  if (list) list.push(g);
  else map.set(key, [g]);
}

function anyFits(globs: NameGlob[] | undefined, name: string): boolean {
  if (globs === undefined) return false;
  for (const g of globs) if (fits(g, name)) return true;
  return false;
}

/** Whether `name` may fit the glob: its literal start and end, and each literal run inside it somewhere. */
function fits(g: NameGlob, name: string): boolean {
  if (g.exact) return name === g.head;
  if (name.length < g.head.length + g.tail.length || !name.startsWith(g.head) || !name.endsWith(g.tail)) return false;
  for (const m of g.middle) if (!name.includes(m)) return false;
  return true;
}

/** One name's glob (no slash in it); undefined for an unclosed bracket. */
function globOf(text: string): NameGlob | undefined {
  const parts = literalParts(text);
  if (parts === undefined) return undefined;
  const { pieces, wildcards } = parts;
  return {
    head: pieces[0]!,
    tail: wildcards === 0 ? pieces[0]! : pieces[pieces.length - 1]!,
    middle: pieces.slice(1, -1).filter((m) => m !== ""),
    exact: wildcards === 0,
  };
}

/**
 * A pattern's literal runs between its wildcards (`*`, `?`, a bracket expression), first and last
 * included (empty where the pattern starts or ends with a wildcard; an escaped character is literal);
 * undefined for an unclosed bracket.
 */
function literalParts(p: string): { pieces: string[]; wildcards: number } | undefined {
  const pieces: string[] = [];
  let run = "";
  let wildcards = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "\\") {
      run += p[++i] ?? "";
      continue;
    }
    if (c === "*" || c === "?") {
      pieces.push(run);
      run = "";
      wildcards++;
      while (p[i + 1] === "*") i++;
      continue;
    }
    if (c === "[") {
      // a `]` right after `[` or `[!` belongs to the set
      let j = i + 1;
      if (p[j] === "!" || p[j] === "^") j++;
      if (p[j] === "]") j++;
      const close = p.indexOf("]", j);
      if (close < 0) return undefined;
      pieces.push(run);
      run = "";
      wildcards++;
      i = close;
      continue;
    }
    run += c;
  }
  pieces.push(run);
  return { pieces, wildcards };
}
