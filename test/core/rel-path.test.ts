import { describe, expect, test } from "bun:test";
import { joinInside } from "../../src/core/rel-path.ts";

/** What joinInside means, segment by segment (the loop it keeps for paths that are not already normal). */
function reference(dir: string, rel: string): string | undefined {
  const out: string[] = [];
  for (const seg of (dir === "" ? rel : `${dir}/${rel}`).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

describe("joinInside", () => {
  test("joins, normalises and stays inside the root", () => {
    expect(joinInside("drivers/net", "include/linux/kernel.h")).toBe("drivers/net/include/linux/kernel.h");
    expect(joinInside("", "x.h")).toBe("x.h");
    expect(joinInside("a/b", "../c.h")).toBe("a/c.h");
    expect(joinInside("a", "./b//c.h")).toBe("a/b/c.h");
    expect(joinInside("a", "/x")).toBe("a/x");
    expect(joinInside("a", "../../x")).toBeUndefined();
    expect(joinInside("a", "..")).toBe("");
    expect(joinInside("a/.hidden", "x")).toBe("a/.hidden/x");
  });

  test("answers as the segment-by-segment join for any mix of empty, dot and dotted segments", () => {
    const parts = ["", ".", "..", "a", "b.h", ".x", "x.", "..y", "/", "c/d"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const path = () => {
      let s = "";
      for (let k = Math.floor(next() * 5); k > 0; k--) s += parts[Math.floor(next() * parts.length)]! + (next() < 0.7 ? "/" : "");
      return s;
    };
    for (let i = 0; i < 20_000; i++) {
      const dir = path();
      const rel = path();
      expect(joinInside(dir, rel)).toBe(reference(dir, rel));
    }
  });
});
