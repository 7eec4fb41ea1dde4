/**
 * The BM25 machinery and the ranking signals of the research: incremental indexes equal fresh ones,
 * BM25F with one field is BM25, and each structural signal moves the file it should.
 */
import { describe, expect, test } from "bun:test";
import { Bm25Index, termBag } from "../../scripts/eval/bm25.ts";
import { tokenize, identifierParts } from "../../scripts/eval/tokenize.ts";
import { FieldIndex } from "../../scripts/eval/signals/field-index.ts";
import { analyzeFile } from "../../scripts/eval/signals/file-analysis.ts";
import { mentionMatches, queryFeatures } from "../../scripts/eval/signals/query-features.ts";
import { RepoSignals } from "../../scripts/eval/signals/repo-signals.ts";
import { PLAIN, rankWithSignals } from "../../scripts/eval/signals/signal-ranker.ts";
import type { CorpusFile } from "../../scripts/eval/corpus.ts";

const bag = (s: string) => termBag(tokenize(s));
const q = (s: string) => new Map(tokenize(s).map((t) => [t, 1]));
const corpus = (files: Record<string, string>): Map<string, CorpusFile> =>
  new Map(Object.entries(files).map(([p, text]) => [p, { blob: Bun.hash(text).toString(16), text }]));

describe("tokenizer", () => {
  test("identifiers lower-cased plus their snake and camel parts", () => {
    expect(tokenize("getHTTPResponse parse_config L031 x")).toEqual([
      "gethttpresponse",
      "get",
      "http",
      "response",
      "parse_config",
      "parse",
      "config",
      "l031",
      "l",
      "031",
      "x",
    ]);
    expect(identifierParts("__init__")).toEqual([]);
    expect(tokenize("9lives _private")).toEqual(["lives", "_private"]);
  });
});

describe("BM25 indexes", () => {
  test("an index moved by set and delete scores exactly like one built fresh", () => {
    const moved = new Bm25Index();
    moved.set("a", bag("alpha beta beta"));
    moved.set("b", bag("beta gamma"));
    moved.set("c", bag("gamma delta"));
    moved.delete("b");
    moved.set("c", bag("gamma gamma alpha"));
    const fresh = new Bm25Index();
    fresh.set("a", bag("alpha beta beta"));
    fresh.set("c", bag("gamma gamma alpha"));
    expect(moved.score(q("alpha gamma beta"))).toEqual(fresh.score(q("alpha gamma beta")));
    expect(moved.size).toBe(2);
  });

  test("rarer terms weigh more and ties keep path order", () => {
    const idx = new Bm25Index();
    idx.set("z.py", bag("common rare"));
    idx.set("a.py", bag("common other"));
    idx.set("m.py", bag("unrelated words"));
    expect(idx.idf("rare")).toBeGreaterThan(idx.idf("common"));
    expect(idx.rank(q("rare common"))).toEqual(["z.py", "a.py", "m.py"]);
  });

  test("BM25F with everything in one field is BM25", () => {
    const docs = { "a.py": "def parse(x): return x", "b.py": "class Parser: pass\nparse parse", "c.py": "nothing here" };
    const plain = new Bm25Index();
    const fielded = new FieldIndex();
    const empty = bag("");
    for (const [id, text] of Object.entries(docs)) {
      plain.set(id, bag(text));
      fielded.set(id, { path: empty, defs: empty, doc: empty, code: bag(text) });
    }
    const want = plain.score(q("parse parser"));
    const got = fielded.score(q("parse parser"), { path: 1, defs: 1, doc: 1, code: 1 });
    for (const [id, s] of want) expect(got.get(id)).toBeCloseTo(s, 12);
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  });
});

describe("file analysis", () => {
  test("defined names, docstrings and comments apart from code, one chunk per definition", () => {
    const a = analyzeFile(
      "pkg/mod.py",
      [
        "import os",
        "# a comment about caching",
        "class Store:",
        '    """Keeps values."""',
        "    def get(self, key):",
        "        return key",
        "",
        "    @property",
        "    def size(self):",
        "        return 0",
        "async def fetch_all():",
        "    pass",
      ].join("\n"),
    );
    expect([...a.defined].sort()).toEqual(["fetch_all", "get", "size", "store"]);
    expect(a.fields.doc.tf.has("caching")).toBe(true);
    expect(a.fields.doc.tf.has("keeps")).toBe(true);
    expect(a.fields.code.tf.has("caching")).toBe(false);
    expect(a.fields.path.tf.has("mod")).toBe(true);
    // chunks: imports+comment, class header+docstring, get, @property size, fetch_all
    expect(a.chunks).toHaveLength(5);
    expect(a.chunks[3]!.tf.has("property")).toBe(true);
    // The whole document is derived from the chunks; it must equal tokenizing path + content directly.
    const text = ["x = 1  # note", "def f():", '    """Doc of f."""', "    return x"].join("\n");
    const b = analyzeFile("p/q.py", text);
    expect(b.whole).toEqual(termBag(tokenize("p/q.py\n" + text)));
    expect(b.fields.code.tf.has("note")).toBe(false);
    expect(b.fields.code.tf.get("x")).toBe(2);
  });
});

describe("query features", () => {
  test("code identifiers, traceback paths and dotted modules", () => {
    const f = queryFeatures(
      [
        "Calling `Model.save()` on a QuerySet fails in update_fields.",
        'File "/usr/lib/python3/site-packages/django/db/models/query.py", line 12, in get',
        "see django.core.cache.backends for details",
      ].join("\n"),
    );
    for (const id of ["model", "save", "queryset", "update_fields"]) expect(f.identifiers.has(id)).toBe(true);
    expect(f.identifiers.has("calling")).toBe(false);
    expect(f.pathMentions).toEqual(["usr/lib/python3/site-packages/django/db/models/query.py"]);
    expect(f.modulePaths).toContain("django/core/cache/backends.py");
    expect(f.modulePaths).toContain("django/core/cache/backends/__init__.py");
    expect(mentionMatches("django/db/models/query.py", f.pathMentions[0]!)).toBe(true);
    expect(mentionMatches("db/models/query.py", "models/query.py")).toBe(true);
    expect(mentionMatches("db/models/subquery.py", "query.py")).toBe(false);
  });
});

describe("signal ranker", () => {
  const files = corpus({
    "app/views.py": "def render_page(request):\n    # render the storage page, storage storage storage\n    return storage_view(request)\n",
    "app/storage.py": "class FileStorage:\n    def save(self, name):\n        return name\n",
    "app/urls.py": "patterns = []\n",
  });
  const signals = new RepoSignals();
  signals.sync(files);

  test("plain BM25 follows the words; a definition boost follows the named class", () => {
    const issue = "FileStorage storage breaks the storage page";
    expect(rankWithSignals(signals, issue, PLAIN)[0]).toBe("app/views.py");
    expect(rankWithSignals(signals, issue, { ...PLAIN, definitions: 1 })[0]).toBe("app/storage.py");
  });

  test("a traceback frame lifts the file it names", () => {
    const issue = 'storage page broken\nFile "/srv/site/app/urls.py", line 1';
    expect(rankWithSignals(signals, issue, PLAIN)[0]).not.toBe("app/urls.py");
    expect(rankWithSignals(signals, issue, { ...PLAIN, paths: 1 })[0]).toBe("app/urls.py");
  });

  test("sync follows the corpus: removed files leave, changed files are re-read", () => {
    const s = new RepoSignals();
    s.sync(files);
    const next = new Map(files);
    next.delete("app/urls.py");
    next.set("app/storage.py", { blob: "changed", text: "class CloudBucket:\n    pass\n" });
    s.sync(next);
    expect([...s.files.keys()].sort()).toEqual(["app/storage.py", "app/views.py"]);
    expect(s.definers.has("filestorage")).toBe(false);
    expect(s.definers.get("cloudbucket")).toBe(1);
    expect(rankWithSignals(s, "CloudBucket", PLAIN)).toEqual(["app/storage.py", "app/views.py"]);
  });
});
