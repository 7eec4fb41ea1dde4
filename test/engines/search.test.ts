import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Session } from "../../src/tools/session.ts";
import type { SearchEngine } from "../../src/engines/search/index.ts";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";

let p: TmpProject;
let session: Session;
let engine: SearchEngine;

const files = {
  "auth/login.go": `package auth

// Login checks a user's password and opens a session.
func Login(user, password string) (*Session, error) {
	if !checkPassword(user, password) {
		return nil, ErrDenied
	}
	return newSession(user), nil
}

// Session is an authenticated user's session.
type Session struct {
	User    string
	Expires int64
}

func newSession(user string) *Session { return &Session{User: user} }

func checkPassword(user, password string) bool { return hashOf(password) == storedHash(user) }
`,
  "auth/login_test.go": `package auth

import "testing"

// TestLogin calls Login with a good and a bad password: login login login.
func TestLogin(t *testing.T) {
	if _, err := Login("ann", "secret"); err != nil {
		t.Fatal(err)
	}
}
`,
  "billing/invoice.go": `package billing

// ComputeInvoice adds up the order lines, applies tax and returns the invoice total.
func ComputeInvoice(lines []Line, taxRate float64) float64 {
	total := 0.0
	for _, l := range lines {
		total += l.Price * float64(l.Quantity)
	}
	return total * (1 + taxRate)
}

// Line is one order line.
type Line struct {
	Price    float64
	Quantity int
}
`,
  "docs/auth.md": `# Authentication

Users log in with a password; a session expires after a day. #security

## Password storage

Passwords are hashed before they are stored.
`,
  "config/app.yaml": "session:\n  expires_hours: 24\ntax:\n  rate: 0.2\n",
};

beforeAll(async () => {
  p = tmpProject(files);
  session = new Session(p.root, { autoIndex: true });
  engine = await session.search();
});
afterAll(() => {
  session.close();
  p.cleanup();
});

const ids = async (query: string, opts: Partial<Parameters<SearchEngine["search"]>[0]> = {}) =>
  (await engine.search({ query, limit: 10, ...opts })).results.map((h) => h.chunk.id);

describe("hybrid search (keyword ranking, no model)", () => {
  test("a symbol query puts its definition first, ahead of tests that mention it more", async () => {
    expect((await ids("Login"))[0]).toBe("definitions:auth/login.go#Login");
    expect((await ids("ComputeInvoice"))[0]).toBe("definitions:billing/invoice.go#ComputeInvoice");
  });

  test("natural-language queries find the code that does it", async () => {
    expect((await ids("how is the invoice total computed with tax"))[0]).toBe("definitions:billing/invoice.go#ComputeInvoice");
    expect((await ids("where are passwords checked"))[0]).toBe("definitions:auth/login.go#checkPassword");
  });

  test("test files rank below code unless the query is about tests", async () => {
    const plain = await ids("login");
    expect(plain.indexOf("definitions:auth/login_test.go#TestLogin")).toBeGreaterThan(plain.indexOf("definitions:auth/login.go#Login"));
    const aboutTests = await ids("login tests");
    expect(aboutTests[0]!.split(":")[1]!.split("#")[0]).toBe("auth/login_test.go");
  });

  test("filters apply inside the search: chunk types, all tags, language, paths", async () => {
    expect(await ids("session", { filters: { chunkTypes: ["documentation"] } })).toEqual(["documentation:docs/auth.md#Authentication"]);
    expect(await ids("passwords", { filters: { chunkTypes: ["documentation"] } })).toEqual([
      "documentation:docs/auth.md#Authentication > Password storage",
      "documentation:docs/auth.md#Authentication",
    ]);
    // document tags (front matter, #hashtags) belong to every section of the document
    expect((await ids("session password", { filters: { tags: ["documentation", "security"] } })).sort()).toEqual([
      "documentation:docs/auth.md#Authentication",
      "documentation:docs/auth.md#Authentication > Password storage",
    ]);
    expect(await ids("session password", { filters: { tags: ["code", "security"] } })).toEqual([]);
    expect(await ids("session", { filters: { languages: ["yaml"] } })).toEqual(["data:config/app.yaml#config@1"]);
    const billing = await ids("total", { filters: { pathPrefixes: ["billing"] } });
    expect(billing.length).toBeGreaterThan(0);
    expect(billing.every((id) => id.includes("billing/"))).toBe(true);
  });

  test("results carry the chunk with its location, and the response says how it was ranked", async () => {
    const r = await engine.search({ query: "ComputeInvoice", limit: 2 });
    const hit = r.results[0]!;
    expect(hit.chunk.metadata).toMatchObject({ file_path: "billing/invoice.go", language: "go", start_line: 3, end_line: 10, symbol_path: "ComputeInvoice" });
    expect(hit.chunk.text).toContain("return total * (1 + taxRate)");
    expect(hit.combined_score).toBeGreaterThan(0);
    expect(r.total).toBe(2);
    expect(r.mode).toBe("keyword");
    expect(r.embeddings).toStartWith("unavailable:");
    expect(hit).not.toHaveProperty("embedding");
  });

  test("one result per file, and limits", async () => {
    const many = await engine.search({ query: "session user password login", limit: 3 });
    expect(many.results.length).toBe(3);
    const per = await engine.search({ query: "session user password login", limit: 10, onePerFile: true });
    const paths = per.results.map((h) => h.chunk.metadata.file_path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  test("file ranking asks for the terms a caller's weighting gives (the evaluation's seam)", async () => {
    const own = await engine.searchFiles("money owed", 5, { mode: "keyword" });
    expect(own.map((f) => f.filePath)).not.toContain("billing/invoice.go");
    const widened = await engine.searchFiles("money owed", 5, {
      mode: "keyword",
      termWeights: (q) => new Map([...q.weights, ["invoice", 0.5]]),
    });
    expect(widened[0]!.filePath).toBe("billing/invoice.go");
  });

  test("a hit whose file changed on disk after indexing is marked stale", async () => {
    p.write("billing/invoice.go", files["billing/invoice.go"] + "\n// edited\n");
    const r = await engine.search({ query: "ComputeInvoice", limit: 1 });
    expect(r.results[0]!.stale).toBe(true);
    p.write("billing/invoice.go", files["billing/invoice.go"]);
  });
});
