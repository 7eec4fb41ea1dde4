/**
 * How a parse worker hands a parsed file to the indexer's thread: the file's numbers and its distinct
 * strings (one after another, as UTF-8) in one buffer that is transferred, not copied, instead of a structured clone
 * of the ParsedFile's object tree. The indexer hands each buffer back once it has read the file
 * (`recycleWireBuffer`), so a worker writes the next files into memory already in use.
 *
 * Why: structured cloning walks every object and property of the tree and hashes every string into its
 * own table; it was a tenth of a parse worker's CPU on the kernel (ksub: 3.8 s of 11,153 files' clones
 * against 1.2 s of their reading back). Here a file's strings are interned once (a reference's name,
 * qualifier and enclosing definition repeat), the long texts (chunk prefixes, keyword words) are added
 * as they are, and the receiving side rebuilds the same ParsedFile: `decodeParsedFile(encodeParsedFile(f))`
 * deep-equals `f` for every ParsedFile the parse tier makes (test/indexer/parsed-file-wire.test.ts).
 *
 * Why the strings travel as bytes in a circulating buffer: as one string in the message, each file's text
 * was copied into a fresh buffer by the structured clone, and the numbers into a fresh ArrayBuffer, and
 * both were freed on the other thread: fresh memory for every file, which the allocator returns to the
 * system between uses and which must then be faulted in again (the kernel: 2.7 million page faults in the
 * parse tier; a parse worker's `encode` and `post` steps were 6.5 and 8.2 s of CPU, 3.6 and 2.7 s with the
 * allocator told never to return memory). UTF-8 keeps every string as it is, except a lone surrogate,
 * which becomes U+FFFD (one UTF-16 unit, so the lengths still add up): as SQLite, which stores UTF-8,
 * would store it anyway.
 *
 * Layout of `ints` (all int32): a header (the offset of the string lengths, the string count, the
 * file's own fields and which optional parts follow), then the facts, chunks and file words when present,
 * each list as its length followed by its items' fields in declaration order; then one length per string.
 * A string field holds the string's number (its order of first appearance), -1 when the field is absent;
 * an optional number holds ABSENT when it is absent; booleans are 0 and 1; `mtimeMs` (a millisecond time
 * beyond int32) travels as its decimal text; chunk metadata as JSON text (the store writes it as JSON).
 */
import type { FileFacts, FunctionFact, ImportFact, ReferenceFact, TypeFact, VariableFact } from "../lang/types.ts";
import type { ChunkRecord, FileWords, ParsedFile } from "../store/types.ts";

/** A parsed file as it travels between threads; post `ints.buffer` (shared by `bytes`) as a transferable. */
export interface ParsedFileWire {
  /** The file's numbers, at the start of the buffer. */
  ints: Int32Array;
  /** Its strings, one after another in UTF-8, after the numbers in the same buffer. */
  bytes: Uint8Array;
  /**
   * The file's path and module path, strings of their own: the indexer keeps them for the whole run
   * (the files it wrote, the modules to aggregate), and a string cut out of `text` would keep all of
   * `text` alive with it (JavaScriptCore shares a substring's characters with its base).
   */
  path: string;
  modulePath: string;
}

/**
 * Compiles only when `K` names every field of `T`. Each type the wire form carries is listed below with
 * the fields its writer and reader handle, so a field added to one of them fails tsc here instead of
 * vanishing silently between the threads (the round-trip test sees a field only if a fixture makes it).
 */
type Covers<T, K extends keyof T> = [Exclude<keyof T, K>] extends [never] ? true : { notCarried: Exclude<keyof T, K> };
const CARRIED: [
  Covers<ParsedFile, "path" | "modulePath" | "fileId" | "sizeBytes" | "isTest" | "facts" | "chunks" | "words" | "lines" | "language" | "mtimeMs">,
  Covers<ParsedFile["lines"], "total" | "code" | "comment" | "blank">,
  Covers<FileFacts, "language" | "packageName" | "lines" | "syntaxErrors" | "types" | "functions" | "variables" | "imports" | "references">,
  Covers<
    TypeFact,
    "name" | "qualifiedName" | "kind" | "startLine" | "endLine" | "startColumn" | "exported" | "fieldCount" | "methodCount" | "container" | "docStartLine"
  >,
  Covers<
    FunctionFact,
    | "name"
    | "qualifiedName"
    | "startLine"
    | "endLine"
    | "startColumn"
    | "exported"
    | "isMethod"
    | "receiverType"
    | "paramCount"
    | "returnCount"
    | "bodyLines"
    | "complexity"
    | "signature"
    | "docStartLine"
  >,
  Covers<VariableFact, "name" | "qualifiedName" | "kind" | "startLine" | "endLine" | "startColumn" | "exported" | "container">,
  Covers<ImportFact, "module" | "isStandardLib" | "isExternal" | "isRelative" | "symbols" | "alias" | "line" | "column">,
  Covers<ReferenceFact, "name" | "qualifier" | "qualifierType" | "kind" | "line" | "column" | "enclosing">,
  Covers<
    ChunkRecord,
    "id" | "chunkType" | "title" | "symbolPath" | "language" | "startLine" | "endLine" | "tags" | "prefix" | "spans" | "textHash" | "metadata" | "words"
  >,
  Covers<NonNullable<ChunkRecord["words"]>, "symbols" | "title" | "path" | "body">,
  Covers<FileWords, "path" | "defs" | "doc" | "code">,
] = [true, true, true, true, true, true, true, true, true, true, true];
void CARRIED;

const ABSENT = -0x80000000;
const NO_STRING = -1;
/** Header slots (fixed), before the variable part. */
const HEADER = 16;
const FORMAT = 0x70665731; // "pfW1": a decoder refuses anything else

/** Buffers a worker keeps for its next files: enough for the backlog a pool lets it have (parse-pool.ts). */
const SPARE_BUFFERS = 32;
/** A buffer larger than this (a huge file's) is not kept: it would pin its memory for the rest of the run. */
const LARGEST_KEPT_BUFFER = 4 * 2 ** 20;
const SMALLEST_BUFFER = 64 * 2 ** 10;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * The encoder's state, reused from file to file on one thread: a growing int buffer (copied into the
 * transferred buffer at the end), the string table, and the buffers the indexer handed back.
 */
class WireWriter {
  readonly spare: ArrayBuffer[] = [];
  ints = new Int32Array(1 << 14);
  n = 0;
  readonly ids = new Map<string, number>();
  strings: string[] = [];

  reset(): void {
    this.n = 0;
    this.ids.clear();
    this.strings = [];
  }

  int(v: number): void {
    if ((v | 0) !== v) throw new Error(`parsed-file wire: ${v} is not a 32-bit integer`);
    if (this.n === this.ints.length) this.grow();
    this.ints[this.n++] = v;
  }

  optInt(v: number | undefined): void {
    this.int(v === undefined ? ABSENT : v);
  }

  bool(v: boolean): void {
    this.int(v ? 1 : 0);
  }

  /** A name-like string that may repeat within the file: interned. */
  str(s: string): void {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, id);
    }
    this.int(id);
  }

  optStr(s: string | undefined): void {
    if (s === undefined || s === null) this.int(NO_STRING);
    else this.str(s);
  }

  /** A long text (chunk prefix, keyword words): added as it is, hashing it to intern it costs more than it saves. */
  text(s: string): void {
    this.int(this.strings.length);
    this.strings.push(s);
  }

  private grow(): void {
    const bigger = new Int32Array(this.ints.length * 2);
    bigger.set(this.ints);
    this.ints = bigger;
  }

  finish(path: string, modulePath: string): ParsedFileWire {
    const strings = this.strings;
    this.ints[0] = this.n;
    this.ints[1] = strings.length;
    let units = 0;
    for (let i = 0; i < strings.length; i++) {
      const length = strings[i]!.length;
      this.int(length);
      units += length;
    }
    const intBytes = this.n * 4;
    // one byte a UTF-16 unit is enough for ASCII, the usual case; the loop grows the buffer when not
    let bytes = new Uint8Array(this.takeBuffer(intBytes + units));
    new Int32Array(bytes.buffer, 0, this.n).set(this.ints.subarray(0, this.n));
    // each string encoded where it goes: joining them first made a fresh string of the file's whole text
    let at = intBytes;
    for (let i = 0; i < strings.length; i++) {
      let s = strings[i]!;
      units -= s.length;
      if (s.length === 0) continue;
      for (;;) {
        const r = utf8Encoder.encodeInto(s, bytes.subarray(at));
        at += r.written;
        if (r.read === s.length) break;
        // three bytes a unit at most for what is left (a surrogate pair is 4 bytes for 2 units)
        s = s.slice(r.read);
        const bigger = new Uint8Array(at + 3 * (s.length + units));
        bigger.set(bytes.subarray(0, at));
        bytes = bigger;
      }
    }
    const written = at - intBytes;
    const wire = { ints: new Int32Array(bytes.buffer, 0, this.n), bytes: new Uint8Array(bytes.buffer, intBytes, written), path, modulePath };
    // a worker's writer keeps its buffer for the next file; one huge file must not pin megabytes for good
    if (this.ints.length > 1 << 20) this.ints = new Int32Array(1 << 14);
    this.reset();
    return wire;
  }

  /** A spare buffer of at least `bytes`, or a new one with room to spare (so that it can be used again). */
  private takeBuffer(bytes: number): ArrayBuffer {
    for (let i = this.spare.length - 1; i >= 0; i--) {
      const b = this.spare[i]!;
      if (b.byteLength >= bytes) {
        this.spare[i] = this.spare[this.spare.length - 1]!;
        this.spare.pop();
        return b;
      }
    }
    return new ArrayBuffer(Math.max(SMALLEST_BUFFER, Math.ceil((bytes * 1.25) / 4096) * 4096));
  }
}

let writer: WireWriter | undefined;

/**
 * Gives this thread's encoder back a buffer of a wire form it made, once the other side has read it (a
 * parse worker, from the indexer's `spare` message): the next files are written into it. Buffers beyond
 * what a worker needs, and those of huge files, are let go.
 */
export function recycleWireBuffer(buffer: ArrayBuffer): void {
  const w = (writer ??= new WireWriter());
  if (buffer.byteLength > LARGEST_KEPT_BUFFER || w.spare.length >= SPARE_BUFFERS) return;
  w.spare.push(buffer);
}

/** The wire form of a parsed file. */
export function encodeParsedFile(f: ParsedFile): ParsedFileWire {
  const w = (writer ??= new WireWriter());
  w.reset();
  w.int(0); // where the string lengths start, and
  w.int(0); // how many strings: both set by finish()
  w.int(FORMAT);
  w.int(f.fileId);
  w.int(f.sizeBytes);
  w.bool(f.isTest);
  w.bool(f.facts !== undefined);
  w.bool(f.chunks !== undefined);
  w.bool(f.words !== undefined);
  w.int(f.lines.total);
  w.int(f.lines.code);
  w.int(f.lines.comment);
  w.int(f.lines.blank);
  while (w.n < HEADER) w.int(0);
  w.str(f.language);
  w.text(String(f.mtimeMs));
  if (f.facts) writeFacts(w, f.facts);
  if (f.chunks) writeChunks(w, f.chunks);
  if (f.words) writeFileWords(w, f.words);
  return w.finish(f.path, f.modulePath);
}

function writeFacts(w: WireWriter, facts: FileFacts): void {
  w.str(facts.language);
  w.optStr(facts.packageName);
  w.int(facts.lines.total);
  w.int(facts.lines.code);
  w.int(facts.lines.comment);
  w.int(facts.lines.blank);
  w.int(facts.syntaxErrors);
  w.int(facts.types.length);
  for (const t of facts.types) writeType(w, t);
  w.int(facts.functions.length);
  for (const fn of facts.functions) writeFunction(w, fn);
  w.int(facts.variables.length);
  for (const v of facts.variables) writeVariable(w, v);
  w.int(facts.imports.length);
  for (const imp of facts.imports) writeImport(w, imp);
  w.int(facts.references.length);
  for (const r of facts.references) writeReference(w, r);
}

function writeType(w: WireWriter, t: TypeFact): void {
  w.str(t.name);
  w.str(t.qualifiedName);
  w.str(t.kind);
  w.int(t.startLine);
  w.int(t.endLine);
  w.int(t.startColumn);
  w.bool(t.exported);
  w.int(t.fieldCount);
  w.int(t.methodCount);
  w.optInt(t.docStartLine);
  w.optStr(t.container);
}

function writeFunction(w: WireWriter, fn: FunctionFact): void {
  w.str(fn.name);
  w.str(fn.qualifiedName);
  w.int(fn.startLine);
  w.int(fn.endLine);
  w.int(fn.startColumn);
  w.bool(fn.exported);
  w.bool(fn.isMethod);
  w.optStr(fn.receiverType);
  w.int(fn.paramCount);
  w.int(fn.returnCount);
  w.int(fn.bodyLines);
  w.int(fn.complexity);
  w.str(fn.signature);
  w.optInt(fn.docStartLine);
}

function writeVariable(w: WireWriter, v: VariableFact): void {
  w.str(v.name);
  w.str(v.qualifiedName);
  w.str(v.kind);
  w.int(v.startLine);
  w.int(v.endLine);
  w.int(v.startColumn);
  w.bool(v.exported);
  w.optStr(v.container);
}

function writeImport(w: WireWriter, imp: ImportFact): void {
  w.str(imp.module);
  w.bool(imp.isStandardLib);
  w.bool(imp.isExternal);
  w.bool(imp.isRelative);
  w.int(imp.symbols.length);
  for (const s of imp.symbols) w.str(s);
  w.optStr(imp.alias);
  w.int(imp.line);
  w.int(imp.column);
}

function writeReference(w: WireWriter, r: ReferenceFact): void {
  w.str(r.name);
  w.optStr(r.qualifier);
  w.optStr(r.qualifierType);
  w.str(r.kind);
  w.int(r.line);
  w.int(r.column);
  w.optStr(r.enclosing);
}

function writeChunks(w: WireWriter, chunks: ChunkRecord[]): void {
  w.int(chunks.length);
  for (const c of chunks) {
    w.text(c.id);
    w.str(c.chunkType);
    w.text(c.title);
    w.optStr(c.symbolPath);
    w.str(c.language);
    w.int(c.startLine);
    w.int(c.endLine);
    w.int(c.tags.length);
    for (const t of c.tags) w.str(t);
    w.text(c.prefix);
    w.text(c.spans);
    w.text(c.textHash);
    if (c.metadata === undefined) w.int(NO_STRING);
    else w.text(JSON.stringify(c.metadata));
    const words = c.words;
    if (words === undefined) w.int(NO_STRING);
    else {
      w.text(words.symbols);
      w.text(words.title);
      w.str(words.path);
      w.text(words.body);
    }
  }
}

function writeFileWords(w: WireWriter, words: FileWords): void {
  w.text(words.path);
  w.text(words.defs);
  w.text(words.doc);
  w.text(words.code);
}

/** Reads a wire form back: the ParsedFile that was encoded. */
export function decodeParsedFile(wire: ParsedFileWire): ParsedFile {
  const ints = wire.ints;
  if (ints.length < HEADER || ints[2] !== FORMAT) throw new Error("parsed-file wire: not a parsed file's wire form");
  const r = new WireReader(ints, stringsOf(ints, utf8Decoder.decode(wire.bytes)));
  r.at = HEADER;
  const lines = { total: ints[9]!, code: ints[10]!, comment: ints[11]!, blank: ints[12]! };
  const language = r.str();
  const file: ParsedFile = {
    fileId: ints[3]!,
    path: wire.path,
    language,
    isTest: ints[5] === 1,
    modulePath: wire.modulePath,
    sizeBytes: ints[4]!,
    mtimeMs: Number(r.str()),
    lines,
  };
  if (ints[6] === 1) file.facts = readFacts(r);
  if (ints[8] === 1) {
    // the file's words come after its chunks on the wire, but sit before them in the object
    const chunks = ints[7] === 1 ? readChunks(r) : undefined;
    file.words = { path: r.str(), defs: r.str(), doc: r.str(), code: r.str() };
    if (chunks) file.chunks = chunks;
  } else if (ints[7] === 1) file.chunks = readChunks(r);
  if (r.at !== ints[0]) throw new Error("parsed-file wire: the facts end before or after their recorded length");
  return file;
}

/** The strings of a wire form, cut out of its text by their lengths. */
function stringsOf(ints: Int32Array, text: string): string[] {
  const start = ints[0]!;
  const count = ints[1]!;
  if (start + count !== ints.length) throw new Error("parsed-file wire: the string table does not fit the header");
  const strings = new Array<string>(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const len = ints[start + i]!;
    strings[i] = text.slice(at, at + len);
    at += len;
  }
  if (at !== text.length) throw new Error("parsed-file wire: the string lengths do not add up to the text");
  return strings;
}

class WireReader {
  at = 0;
  constructor(
    readonly ints: Int32Array,
    readonly strings: string[],
  ) {}

  int(): number {
    return this.ints[this.at++]!;
  }

  optInt(): number | undefined {
    const v = this.ints[this.at++]!;
    return v === ABSENT ? undefined : v;
  }

  bool(): boolean {
    return this.ints[this.at++] === 1;
  }

  str(): string {
    return this.strings[this.ints[this.at++]!]!;
  }

  optStr(): string | undefined {
    const id = this.ints[this.at++]!;
    return id === NO_STRING ? undefined : this.strings[id];
  }
}

function readFacts(r: WireReader): FileFacts {
  const language = r.str() as FileFacts["language"];
  const packageName = r.optStr();
  const lines = { total: r.int(), code: r.int(), comment: r.int(), blank: r.int() };
  const syntaxErrors = r.int();
  const types = new Array<TypeFact>(r.int());
  for (let i = 0; i < types.length; i++) types[i] = readType(r);
  const functions = new Array<FunctionFact>(r.int());
  for (let i = 0; i < functions.length; i++) functions[i] = readFunction(r);
  const variables = new Array<VariableFact>(r.int());
  for (let i = 0; i < variables.length; i++) variables[i] = readVariable(r);
  const imports = new Array<ImportFact>(r.int());
  for (let i = 0; i < imports.length; i++) imports[i] = readImport(r);
  const references = new Array<ReferenceFact>(r.int());
  for (let i = 0; i < references.length; i++) references[i] = readReference(r);
  const facts: FileFacts = { language, lines, types, functions, variables, imports, references, syntaxErrors };
  if (packageName !== undefined) facts.packageName = packageName;
  return facts;
}

function readType(r: WireReader): TypeFact {
  const t: TypeFact = {
    name: r.str(),
    qualifiedName: r.str(),
    kind: r.str() as TypeFact["kind"],
    startLine: r.int(),
    endLine: r.int(),
    startColumn: r.int(),
    exported: r.bool(),
    fieldCount: r.int(),
    methodCount: r.int(),
  };
  const doc = r.optInt();
  if (doc !== undefined) t.docStartLine = doc;
  const container = r.optStr();
  if (container !== undefined) t.container = container;
  return t;
}

function readFunction(r: WireReader): FunctionFact {
  const name = r.str();
  const qualifiedName = r.str();
  const startLine = r.int();
  const endLine = r.int();
  const startColumn = r.int();
  const exported = r.bool();
  const isMethod = r.bool();
  const receiverType = r.optStr();
  const fn: FunctionFact = {
    name,
    qualifiedName,
    startLine,
    endLine,
    startColumn,
    exported,
    isMethod,
    paramCount: r.int(),
    returnCount: r.int(),
    bodyLines: r.int(),
    complexity: r.int(),
    signature: r.str(),
  };
  if (receiverType !== undefined) fn.receiverType = receiverType;
  const doc = r.optInt();
  if (doc !== undefined) fn.docStartLine = doc;
  return fn;
}

function readVariable(r: WireReader): VariableFact {
  const v: VariableFact = {
    name: r.str(),
    qualifiedName: r.str(),
    kind: r.str() as VariableFact["kind"],
    startLine: r.int(),
    endLine: r.int(),
    startColumn: r.int(),
    exported: r.bool(),
  };
  const container = r.optStr();
  if (container !== undefined) v.container = container;
  return v;
}

function readImport(r: WireReader): ImportFact {
  const module = r.str();
  const isStandardLib = r.bool();
  const isExternal = r.bool();
  const isRelative = r.bool();
  const symbols = new Array<string>(r.int());
  for (let i = 0; i < symbols.length; i++) symbols[i] = r.str();
  const alias = r.optStr();
  const imp: ImportFact = { module, isStandardLib, isExternal, isRelative, symbols, line: r.int(), column: r.int() };
  if (alias !== undefined) imp.alias = alias;
  return imp;
}

function readReference(r: WireReader): ReferenceFact {
  const name = r.str();
  const qualifier = r.optStr();
  const qualifierType = r.optStr();
  const ref: ReferenceFact = { name, kind: r.str() as ReferenceFact["kind"], line: r.int(), column: r.int() };
  if (qualifier !== undefined) ref.qualifier = qualifier;
  if (qualifierType !== undefined) ref.qualifierType = qualifierType;
  const enclosing = r.optStr();
  if (enclosing !== undefined) ref.enclosing = enclosing;
  return ref;
}

function readChunks(r: WireReader): ChunkRecord[] {
  const chunks = new Array<ChunkRecord>(r.int());
  for (let i = 0; i < chunks.length; i++) {
    const id = r.str();
    const chunkType = r.str() as ChunkRecord["chunkType"];
    const title = r.str();
    const symbolPath = r.optStr();
    const language = r.str();
    const startLine = r.int();
    const endLine = r.int();
    const tags = new Array<string>(r.int());
    for (let k = 0; k < tags.length; k++) tags[k] = r.str();
    const c: ChunkRecord = { id, chunkType, title, language, startLine, endLine, tags, prefix: r.str(), spans: r.str(), textHash: r.str() };
    const metadata = r.optStr();
    const symbols = r.optStr();
    if (symbols !== undefined) c.words = { symbols, title: r.str(), path: r.str(), body: r.str() };
    if (symbolPath !== undefined) c.symbolPath = symbolPath;
    if (metadata !== undefined) c.metadata = JSON.parse(metadata) as Record<string, unknown>;
    chunks[i] = c;
  }
  return chunks;
}
