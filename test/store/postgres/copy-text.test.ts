/**
 * Rows by COPY (copy-text.ts, and copyIn of both clients: the driver's COPY FROM STDIN stream on a server,
 * /dev/blob on PGlite): values arrive exactly as written, and a COPY the server rejects, or whose
 * connection dies, fails the call (the driver alone would wait forever) and rolls its transaction back.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectPostgres, type PgClient } from "../../../src/store/postgres/client.ts";
import { CopyText, escapeText } from "../../../src/store/postgres/copy-text.ts";
import { BACKENDS } from "./backends.ts";

setDefaultTimeout(120_000);

test("COPY text: tabs apart, \\N for null, t/f, and text's backslash, newline, return and tab escaped", () => {
  const text = new CopyText();
  text.add([1, "a\tb\nc\\d\re", null, true, false, undefined, ""]);
  text.add([2n, "plain", 1.5, "ü 💡"]);
  expect(text.rows).toBe(2);
  expect(text.data().join("")).toBe("1\ta\\tb\\nc\\\\d\\re\t\\N\tt\tf\t\\N\t\n2\tplain\t1.5\tü 💡\n");
  expect(escapeText("no escapes")).toBe("no escapes");
  expect(() => new CopyText().add([{}])).toThrow("object");
  // rows gather into pieces of about a megabyte
  const big = new CopyText();
  for (let i = 0; i < 300; i++) big.add([i, "x".repeat(10_000)]);
  expect(big.data().length).toBe(3);
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(backend.name, () => {
    let db: { client: PgClient; url?: string; stop(): Promise<void> } | undefined;
    let client: PgClient;

    beforeAll(async () => {
      db = await backend.start();
      client = db.client;
      await client.exec(`CREATE SCHEMA copy_test;
        CREATE TABLE copy_test.t (id bigint NOT NULL, body text, flag boolean, words tsvector);`);
    }, 180_000);

    afterAll(async () => {
      await db?.stop();
    });

    test("rows go in by COPY exactly as written, in several pieces", async () => {
      const bodies = ["a\tb\nc\\d\re", `${"line\n".repeat(300_000)}end`, "", null, "ü 💡 'quoted' \"double\""];
      const text = new CopyText();
      bodies.forEach((b, i) => text.add([i, b, i % 2 === 0, i === 0 ? "'parse':1A 'header':2,5" : null]));
      expect(text.data().length).toBeGreaterThan(1);
      await client.transaction((tx) => tx.copyIn("copy_test.t", ["id", "body", "flag", "words"], text.data()));
      const rows = await client.query<{ id: string | number; body: string | null; flag: boolean; words: string | null }>(
        "SELECT id, body, flag, words::text AS words FROM copy_test.t ORDER BY id",
      );
      expect(rows.map((r) => r.body)).toEqual(bodies);
      expect(rows.map((r) => r.flag)).toEqual([true, false, true, false, true]);
      expect(rows[0]!.words).toBe("'header':2,5 'parse':1A");
      await client.exec("TRUNCATE copy_test.t");
    });

    test("a COPY the server rejects fails the call with its reason, rolls back, and leaves the connection usable", async () => {
      const good = new CopyText();
      good.add([1, "kept?", true, null]);
      const bad = new CopyText();
      bad.add(["not a number", "x", true, null]);
      // the error arrives after the last row was sent (small), and while rows are still being sent (large)
      const late = bad.data();
      const early = new CopyText();
      early.add(["not a number", "x", true, null]);
      for (let i = 0; i < 20_000; i++) early.add([i, "y".repeat(500), false, null]);
      for (const data of [late, early.data()]) {
        const conn = await client.reserve();
        try {
          const run = conn.transaction(async (tx) => {
            await tx.copyIn("copy_test.t", ["id", "body", "flag", "words"], good.data());
            await tx.copyIn("copy_test.t", ["id", "body", "flag", "words"], data);
          });
          await expect(run).rejects.toThrow("invalid input syntax for type bigint");
          const [n] = await conn.query<{ n: number }>("SELECT count(*)::int AS n FROM copy_test.t");
          expect(n!.n).toBe(0);
        } finally {
          await conn.release();
        }
      }
    });

    // PGlite has no connection to lose
    if (backend.name === "server")
      test("a COPY whose connection dies fails the call instead of waiting forever", async () => {
        await client.exec(`CREATE TABLE copy_test.slow (id bigint);
        CREATE FUNCTION copy_test.slowly() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(30); RETURN NEW; END $$;
        CREATE TRIGGER slow BEFORE INSERT ON copy_test.slow FOR EACH ROW EXECUTE FUNCTION copy_test.slowly();`);
        const victim = connectPostgres(db!.url!, { maxConnections: 1 });
        try {
          const rows = new CopyText();
          rows.add([1]);
          // outside a transaction: the driver's ROLLBACK on a dead connection is a failure of its own
          const copying = victim.copyIn("copy_test.slow", ["id"], rows.data());
          copying.catch(() => {});
          // once the server sleeps in the trigger, the COPY's connection is ended from outside
          for (let i = 0; i < 100; i++) {
            const [r] = await client.query<{ n: number }>(
              "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY copy_test.slow %' AND wait_event = 'PgSleep'",
            );
            if (r!.n > 0) break;
            await Bun.sleep(100);
          }
          await expect(copying).rejects.toThrow("CONNECTION_CLOSED");
        } finally {
          await victim.close();
        }
      });
  });
}
