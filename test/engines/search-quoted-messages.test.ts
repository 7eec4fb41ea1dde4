/**
 * A pasted traceback's exception line points at the code that raises it: its fixed parts (what a format
 * string does not fill in) are looked up word for word, and the files holding them rank higher.
 */
import { afterEach, expect, test } from "bun:test";
import { quotedMessageParts } from "../../src/engines/search/quoted-messages.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { Session } from "../../src/tools/session.ts";
import { FILE_RANKING } from "../../src/engines/search/index.ts";
import { withKnobs } from "../helpers/search-project.ts";

let p: TmpProject | undefined;
let session: Session | undefined;
afterEach(() => {
  session?.close();
  p?.cleanup();
  session = p = undefined;
});

test("the fixed parts of exception lines: values, numbers and bracketed parts cut out, short or one-word parts dropped", () => {
  const issue = [
    "Formatting a float fails",
    "Traceback (most recent call last):",
    '  File "x.py", line 3, in <module>',
    "ValueError: Unknown format code 'd' for object of type 'float'",
    "E   shop.errors.PricingError: price 12.5 is below the floor (10) for sku [A-1]",
    "UserWarning: deprecated",
    "This is not an exception: just prose",
  ].join("\n");
  expect(quotedMessageParts(issue)).toEqual(["Unknown format code", "for object of type", "is below the floor"]);
  expect(quotedMessageParts("no traceback here")).toEqual([]);
});

test("the file that raises a quoted message gains the list's weight, enough to pass the file the words alone put first", async () => {
  const files: Record<string, string> = {
    "shop/check.py": 'def check(price, sku):\n    if price < 10:\n        raise PricingError(f"price {price} is below the floor ({10}) for sku [{sku}]")\n',
    "shop/orders.py":
      'def total(order):\n    """Order totals: each sku\'s price, the floor below which a price fails, the order\'s totals and errors."""\n    return sum(order.prices)\n',
  };
  // a part many files hold weighs nothing: the language's own wording
  for (let i = 0; i < 12; i++) files[`shop/util_${i}.py`] = `def helper_${i}(x):\n    """Checks for object of type x."""\n    return x\n`;
  p = tmpProject(files);
  session = new Session(p.root);
  await session.index();
  const engine = await session.search();
  const issue = [
    "Order totals fail",
    "Computing the order totals fails for a sku:",
    "Traceback (most recent call last):",
    "shop.errors.PricingError: price 9 is below the floor (10) for sku [A-1]",
    "ValueError: Unknown format code 'd' for object of type 'float'",
  ].join("\n");
  const score = (ranked: Array<{ filePath: string; score: number }>) => new Map(ranked.map((r) => [r.filePath, r.score]));
  const withMessages = score(await withKnobs(FILE_RANKING, { messages: 1 }, () => engine.searchFiles(issue, 20)));
  const without = score(await withKnobs(FILE_RANKING, { messages: 0 }, () => engine.searchFiles(issue, 20)));
  // the one file holding the message's part gains the list's whole weight; nothing else moves (the part
  // twelve files hold, `for object of type`, says nothing)
  expect(withMessages.get("shop/check.py")! - without.get("shop/check.py")!).toBeCloseTo(1, 5);
  for (const [path, v] of without) if (path !== "shop/check.py") expect([path, withMessages.get(path)]).toEqual([path, v]);
  expect((await withKnobs(FILE_RANKING, { messages: 2 }, () => engine.searchFiles(issue, 5)))[0]!.filePath).toBe("shop/check.py");
  expect((await withKnobs(FILE_RANKING, { messages: 0 }, () => engine.searchFiles(issue, 5)))[0]!.filePath).toBe("shop/orders.py");
});
