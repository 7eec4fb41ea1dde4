/** The shared store's address: selection by flag or environment, and passwords never shown. */
import { expect, setDefaultTimeout, test } from "bun:test";
import { connectPostgres } from "../../../src/store/postgres/client.ts";
import { maskUrl, storeUrl } from "../../../src/store/postgres/url.ts";

// builds local indexes, starts databases and command-line processes: seconds each on a busy machine
setDefaultTimeout(120_000);

test("a URL's password is masked; a URL without one is unchanged", () => {
  expect(maskUrl("postgres://indexer:s3cret@db.internal:5432/cortex")).toBe("postgres://indexer:***@db.internal:5432/cortex");
  expect(maskUrl("postgres://agent@db.internal/cortex")).toBe("postgres://agent@db.internal/cortex");
  expect(maskUrl("postgres://u:p%40ss@h/d?sslmode=require")).toBe("postgres://u:***@h/d?sslmode=require");
  // libpq's other way of giving it, as a parameter: masked too, the other parameters left as they are
  expect(maskUrl("postgres://agent@h/d?host=%2Ftmp%2Fpg&password=hunter2&sslmode=require")).toBe(
    "postgres://agent@h/d?host=%2Ftmp%2Fpg&password=***&sslmode=require",
  );
  expect(maskUrl("postgres://agent:a@h/d?PASSWORD=hunter2")).toBe("postgres://agent:***@h/d?PASSWORD=***");
  expect(maskUrl("postgres://u@[bad/d?password=hunter2")).not.toContain("hunter2");
  // not parseable as a URL: the part between "user:" and "@" is still hidden
  expect(maskUrl("postgres://u:se cret@[bad/d")).not.toContain("se cret");
});

test("the flag wins over CORTEX_DATABASE_URL; neither means the local store; other schemes are refused", () => {
  expect(storeUrl(undefined, {})).toBeUndefined();
  expect(storeUrl(undefined, { CORTEX_DATABASE_URL: "" })).toBeUndefined();
  expect(storeUrl(undefined, { CORTEX_DATABASE_URL: "postgres://a@h/d" })).toBe("postgres://a@h/d");
  expect(storeUrl("postgresql://b@h/d", { CORTEX_DATABASE_URL: "postgres://a@h/d" })).toBe("postgresql://b@h/d");
  expect(() => storeUrl("mysql://u:hunter2@h/d", {})).toThrow("store: 'mysql://u:***@h/d' is not a PostgreSQL URL");
  expect(() => storeUrl("not a url", {})).toThrow("is not a URL");
});

test("a connection error names the store without its password", async () => {
  // a socket folder with no server in it: the connection fails at once, on this machine only
  const client = connectPostgres(`postgres://agent:hunter2@localhost/cortex?host=${encodeURIComponent("/nonexistent-cortex-socket")}`);
  const err = await client.query("SELECT 1").then(
    () => undefined,
    (e: Error) => e,
  );
  await client.close();
  expect(err).toBeInstanceOf(Error);
  expect(err!.message).toContain("postgres://agent:***@localhost/cortex");
  expect(err!.message).not.toContain("hunter2");
});
