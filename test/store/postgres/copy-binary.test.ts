/**
 * Rows by binary COPY (copy-binary.ts, and copyIn of both clients: the driver's COPY FROM STDIN stream on
 * a server, /dev/blob on PGlite): values arrive exactly as written, and a COPY the server rejects, or
 * whose connection dies, fails the call (the driver alone would wait forever) and rolls its transaction
 * back.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectPostgres, type PgClient } from "../../../src/store/postgres/client.ts";
import { BinaryCopy } from "../../../src/store/postgres/copy-binary.ts";
import { BACKENDS } from "./backends.ts";

setDefaultTimeout(120_000);

test("binary COPY: header, rows of typed fields, trailer; values that are not integers are refused", () => {
  const out = new BinaryCopy();
  out.row(4);
  out.value("integer", -2);
  out.value("bigint", 2 ** 40 + 5);
  out.value("boolean", true);
  out.value("text", "ü");
  const bytes = Buffer.concat(out.data());
  expect(bytes.subarray(0, 11).toString("latin1")).toBe("PGCOPY\n\xff\r\n\0");
  expect(bytes.readInt16BE(19)).toBe(4);
  expect(bytes.readInt32BE(21)).toBe(4);
  expect(bytes.readInt32BE(25)).toBe(-2);
  expect(bytes.readInt32BE(29)).toBe(8);
  expect(bytes.readBigInt64BE(33)).toBe(2n ** 40n + 5n);
  expect(bytes.subarray(-2).readInt16BE(0)).toBe(-1);
  expect(out.rows).toBe(1);
  // a short text is copied char by char while it is ASCII, and written as UTF-8 from its start when not
  const texts = ["plain_name", "abcü", "ü", "x".repeat(64), `${"y".repeat(63)}é`, "z".repeat(65)];
  const withTexts = new BinaryCopy();
  for (const t of texts) {
    withTexts.row(1);
    withTexts.value("text", t);
  }
  const written = Buffer.concat(withTexts.data());
  let at = 19;
  for (const t of texts) {
    expect(written.readInt16BE(at)).toBe(1);
    const size = written.readInt32BE(at + 2);
    expect(written.subarray(at + 6, at + 6 + size).toString("utf8")).toBe(t);
    at += 6 + size;
  }
  expect(written.readInt16BE(at)).toBe(-1);
  expect(() => new BinaryCopy().value("integer", 1.5)).toThrow("not an integer");
  expect(() => new BinaryCopy().value("bigint", "x")).toThrow("not an integer");
  // rows gather into a first piece of 64 KB (many COPYs are a few rows), then pieces of about a megabyte
  const big = new BinaryCopy();
  for (let i = 0; i < 300; i++) {
    big.row(1);
    big.value("text", "x".repeat(10_000));
  }
  const pieces = big.data();
  expect(pieces.map((p) => Math.round(p.length / 10_000))).toEqual([4, 102, 102, 92]);
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(backend.name, () => {
    let db: { client: PgClient; url?: string; stop(): Promise<void> } | undefined;
    let client: PgClient;

    beforeAll(async () => {
      db = await backend.start();
      client = db.client;
      await client.exec(`CREATE SCHEMA copy_test;
        CREATE TABLE copy_test.t (id bigint NOT NULL, n integer, body text, flag boolean);`);
    }, 180_000);

    afterAll(async () => {
      await db?.stop();
    });

    const COLUMNS = ["id", "n", "body", "flag"];
    const rowsOf = (rows: Array<[number, number | null, string | null, boolean | null]>): BinaryCopy => {
      const out = new BinaryCopy();
      for (const [id, n, body, flag] of rows) {
        out.row(4);
        out.value("bigint", id);
        out.value("integer", n);
        out.value("text", body);
        out.value("boolean", flag);
      }
      return out;
    };

    test("bytes go in by COPY as bytea, exactly as written", async () => {
      await client.exec("CREATE TABLE copy_test.b (id integer NOT NULL, bytes bytea)");
      const values = [new Uint8Array(0), Uint8Array.from([0, 1, 127, 128, 255]), new Uint8Array(3 << 20).map((_, i) => (i * 7) % 256), null];
      const out = new BinaryCopy();
      values.forEach((v, i) => {
        out.row(2);
        out.value("integer", i);
        out.value("bytea", v);
      });
      await client.transaction((tx) => tx.copyIn("copy_test.b", ["id", "bytes"], out.data()));
      const rows = await client.query<{ bytes: Uint8Array | null }>("SELECT bytes FROM copy_test.b ORDER BY id");
      expect(rows.map((r) => (r.bytes === null ? null : Array.from(r.bytes)))).toEqual(values.map((v) => (v === null ? null : Array.from(v))));
      expect(() => new BinaryCopy().value("bytea", "text")).toThrow("a bytea value must be bytes");
    });

    test("rows go in by COPY exactly as written, in several pieces", async () => {
      const bodies: Array<string | null> = ["a\tb\nc\\d\re", `${"line\n".repeat(300_000)}end`, "", null, "ü 💡 'quoted' \"double\""];
      const out = rowsOf(bodies.map((b, i) => [i === 0 ? -(2 ** 40) : i, i === 1 ? null : -i * 1000, b, i === 2 ? null : i % 2 === 0]));
      const data = out.data();
      expect(data.length).toBeGreaterThan(1);
      await client.transaction((tx) => tx.copyIn("copy_test.t", COLUMNS, data));
      const rows = await client.query<{ id: string; n: number | null; body: string | null; flag: boolean | null }>(
        "SELECT id::text AS id, n, body, flag FROM copy_test.t ORDER BY body IS NULL, id",
      );
      expect(rows.map((r) => r.id)).toEqual([String(-(2 ** 40)), "1", "2", "4", "3"]);
      expect(rows.map((r) => r.body)).toEqual([bodies[0]!, bodies[1]!, bodies[2]!, bodies[4]!, null]);
      expect(rows.map((r) => r.n)).toEqual([0, null, -2000, -4000, -3000]);
      expect(rows.map((r) => r.flag)).toEqual([true, false, null, true, false]);
      await client.exec("TRUNCATE copy_test.t");
    });

    test("a COPY the server rejects fails the call with its reason, rolls back, and leaves the connection usable", async () => {
      // a field of the wrong size: an integer (4 bytes) where the table has a bigint
      const bad = new BinaryCopy();
      bad.row(4);
      bad.value("integer", 1);
      bad.value("integer", 1);
      bad.value("text", "x");
      bad.value("boolean", true);
      const early = rowsOf([]);
      early.row(4);
      early.value("integer", 1);
      early.value("integer", 1);
      early.value("text", "x");
      early.value("boolean", true);
      for (let i = 0; i < 20_000; i++) {
        early.row(4);
        early.value("bigint", i);
        early.value("integer", i);
        early.value("text", "y".repeat(500));
        early.value("boolean", false);
      }
      // the error arrives after the last row was sent (small), and while rows are still being sent (large)
      for (const data of [bad.data(), early.data()]) {
        const conn = await client.reserve();
        try {
          const run = conn.transaction(async (tx) => {
            await tx.copyIn("copy_test.t", COLUMNS, rowsOf([[1, 1, "kept?", true]]).data());
            await tx.copyIn("copy_test.t", COLUMNS, data);
          });
          await expect(run).rejects.toThrow("insufficient data left in message");
          const [n] = await conn.query<{ n: number }>("SELECT count(*)::int AS n FROM copy_test.t");
          expect(n!.n).toBe(0);
          // the connection answers after the failure
          expect(await conn.query<{ one: number }>("SELECT 1 AS one")).toEqual([{ one: 1 }]);
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
          const row = new BinaryCopy();
          row.row(1);
          row.value("bigint", 1);
          // outside a transaction: the driver's ROLLBACK on a dead connection is a failure of its own
          const copying = victim.copyIn("copy_test.slow", ["id"], row.data());
          copying.catch(() => {});
          // once the server sleeps in the trigger, the COPY's connection is ended from outside
          for (let i = 0; i < 100; i++) {
            const [r] = await client.query<{ n: number }>(
              "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY copy_test.slow %' AND wait_event = 'PgSleep'",
            );
            if (r!.n > 0) break;
            await Bun.sleep(100);
          }
          // the driver names a closed socket or a reset one, as the kernel reports it
          await expect(copying).rejects.toThrow(/CONNECTION_CLOSED|ECONNRESET/);
        } finally {
          await victim.close();
        }
      });
  });
}
