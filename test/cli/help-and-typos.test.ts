/**
 * The command line's help and its answers to typos, as a tester met them: every unknown command,
 * subcommand and option names the word and the nearest one cortex has, on stderr with exit code 2; -v and
 * -V print the version; `help <unknown>` is an error; a command group has a help; the general help's
 * columns never run together and list the global options; a missing argument says what to type.
 * Run in an empty folder: none of these may start an index build.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tmpProject, type TmpProject } from "../helpers/tmp-project.ts";
import { indexLocation } from "../../src/store/location.ts";
import { canonicalRoot } from "../../src/core/paths.ts";

const CLI = join(import.meta.dir, "../../src/cli/main.ts");
let p: TmpProject;

async function cortex(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], { cwd: p.root, stdout: "pipe", stderr: "pipe", env: { ...process.env } });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Runs each command and returns [exit code, stderr] of each, stdout having to be empty. */
async function errors(...commands: string[][]): Promise<[number, string][]> {
  const results = await Promise.all(commands.map((c) => cortex(...c)));
  return results.map((r) => {
    expect(r.stdout).toBe("");
    return [r.code, r.stderr];
  });
}

beforeAll(() => {
  p = tmpProject({ "main.go": "package main\n" });
});
afterAll(() => p.cleanup());

describe("typos get a suggestion", () => {
  test("unknown commands, and options given with no command", async () => {
    expect(await errors(["serch", "x"], ["docter"], ["mem"], ["frobnicate"], ["--verison"], ["--wirte"], ["--jsn"], ["--write"], ["-x"])).toEqual([
      [2, "cortex: unknown command 'serch': did you mean 'search'? (see cortex --help)\n"],
      [2, "cortex: unknown command 'docter': did you mean 'doctor'? (see cortex --help)\n"],
      [2, "cortex: unknown command 'mem': did you mean 'memory'? (see cortex --help)\n"],
      [2, "cortex: unknown command 'frobnicate' (see cortex --help)\n"],
      [2, "cortex: unknown option --verison: did you mean '--version'? (see cortex --help)\n"],
      [2, "cortex: unknown option --wirte: did you mean 'cortex setup --write'? (see cortex setup --help)\n"],
      [2, "cortex: unknown option --jsn: did you mean 'cortex <command> --json'? (see cortex --help)\n"],
      [2, "cortex: --write is an option of cortex setup: cortex setup --write (see cortex setup --help)\n"],
      [2, "cortex: unknown option -x (see cortex --help)\n"],
    ]);
  });

  test("unknown subcommands of memory and stats", async () => {
    expect(await errors(["memory", "remve", "x"], ["memory", "bogus"], ["memory"], ["stats", "exprt"])).toEqual([
      [2, "cortex: unknown memory command 'remve': use add, list, remove; did you mean 'remove'? (see cortex memory --help)\n"],
      [2, "cortex: unknown memory command 'bogus': use add, list, remove (see cortex memory --help)\n"],
      [2, "cortex: cortex memory needs a command: use add, list, remove (see cortex memory --help)\n"],
      [2, "cortex: unknown stats command 'exprt': use export or import; did you mean 'export'? (see cortex stats --help)\n"],
    ]);
  });

  test("unknown options of a command name the command's help, and the nearest option", async () => {
    expect(
      await errors(
        ["grep", "foo", "--pth", "src"],
        ["search", "x", "--tpye", "definitions"],
        ["memory", "list", "--catgory", "auth"],
        ["files", "--bogus"],
        ["index", "--dyr-run"],
        ["mcp", "--htp", "127.0.0.1:1"],
        ["stats", "export", "--ouput", "x"],
        ["memory", "remove", "x", "--jsno"],
        ["grep", "foo", "--repoo", "web"],
        ["search", "x", "--stor", "postgres://h/db"],
        ["index", "--repo", "web", "--fulll", "."],
        ["repos", "--stor", "postgres://h/db"],
      ),
    ).toEqual([
      [2, "cortex: unknown option --pth: did you mean '--path'? (see cortex grep --help)\n"],
      [2, "cortex: unknown option --tpye: did you mean '--type'? (see cortex search --help)\n"],
      [2, "cortex: unknown option --catgory: did you mean '--category'? (see cortex memory list --help)\n"],
      [2, "cortex: unknown option --bogus (see cortex files --help)\n"],
      [2, "cortex: unknown option --dyr-run: did you mean '--dry-run'? (see cortex index --help)\n"],
      [2, "cortex: unknown option --htp: did you mean '--http'? (see cortex mcp --help)\n"],
      [2, "cortex: unknown option --ouput: did you mean '--output'? (see cortex stats --help)\n"],
      [2, "cortex: unknown option --jsno: did you mean '--json'? (see cortex memory remove --help)\n"],
      // the shared store's flags, on a tool and on its own commands
      [2, "cortex: unknown option --repoo: did you mean '--repo'? (see cortex grep --help)\n"],
      [2, "cortex: unknown option --stor: did you mean '--store'? (see cortex search --help)\n"],
      [2, "cortex: unknown option --fulll: did you mean '--full'? (see cortex help index, cortex help repos)\n"],
      [2, "cortex: unknown option --stor: did you mean '--store'? (see cortex help index, cortex help repos)\n"],
    ]);
  });

  test("a value outside a positional's list names the nearest", async () => {
    const [code, stderr] = (await errors(["graph", "calers", "x"]))[0]!;
    expect(code).toBe(2);
    expect(stderr).toEndWith(`"impact"; did you mean 'callers'?\n`);
  });
});

test("-v and -V print the version, as --version does", async () => {
  const { version } = await Bun.file(join(import.meta.dir, "../../package.json")).json();
  for (const flag of ["-v", "-V"]) expect(await cortex(flag)).toEqual({ code: 0, stdout: `cortex ${version}\n`, stderr: "" });
});

describe("help", () => {
  test("help of an unknown command is an error naming it, with a suggestion", async () => {
    expect(await errors(["help", "bogus"], ["help", "serch"], ["help", "memory", "lst"])).toEqual([
      [2, "cortex: unknown command 'bogus' (see cortex --help)\n"],
      [2, "cortex: unknown command 'serch': did you mean 'search'? (see cortex --help)\n"],
      [2, "cortex: unknown command 'memory lst': did you mean 'memory list'? (see cortex --help)\n"],
    ]);
    const two = await cortex("help", "memory", "list");
    expect([two.code, two.stdout.split("\n")[0]]).toEqual([0, "cortex memory list [options]"]);
    // stats export and import are described by the help of stats
    const stats = await cortex("help", "stats", "export");
    expect([stats.code, stats.stdout]).toEqual([0, (await cortex("stats", "--help")).stdout]);
  });

  test("memory --help lists the memory commands; memory remove and stats import have a help", async () => {
    const [memory, h, viaHelp, remove, importHelp] = await Promise.all([
      cortex("memory", "--help"),
      cortex("memory", "-h"),
      cortex("help", "memory"),
      cortex("memory", "remove", "--help"),
      cortex("stats", "import", "--help"),
    ]);
    expect(memory.code).toBe(0);
    expect(memory.stdout).toStartWith("cortex memory <command> [options]\n\nCommands:\n");
    expect(memory.stdout).toMatch(/\n {2}memory add {2,}remember: /);
    expect(memory.stdout).toMatch(/\n {2}memory list {2,}recall memories: /);
    expect(memory.stdout).toMatch(/\n {2}memory remove <id> {2,}forget a team memory\n/);
    expect(h).toEqual(memory);
    expect(viaHelp).toEqual(memory);
    expect([remove.code, remove.stdout.split("\n")[0]]).toEqual([0, "cortex memory remove <id> [--root <path>] [--json]"]);
    expect([importHelp.code, importHelp.stdout]).toEqual([0, (await cortex("stats", "--help")).stdout]);
  });

  test("the general help keeps two spaces between its columns and lists the global options", async () => {
    const r = await cortex("--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n {2}index --repo <name> \[path\] {2,}index a project into the shared PostgreSQL store\n/);
    const global = r.stdout.slice(r.stdout.indexOf("\nGlobal options:\n"));
    expect(global).toMatch(/\n {2}--version, -v, -V {2,}print cortex's version\n/);
    expect(global).toMatch(/\n {2}--root <path> {2,}.*the project's folder/);
    expect(global).toMatch(/\n {2}--help, -h {2,}/);
    // every line of a two-column table: an entry, two spaces at least, its text (or the entry alone)
    const commands = r.stdout.slice(r.stdout.indexOf("Commands:\n") + 10, r.stdout.indexOf("\n\n", r.stdout.indexOf("Commands:")));
    for (const line of commands.split("\n")) expect(line).toMatch(/^ {2}\S.*?\S {2,}\S/);
  });

  test("search --help names the flags its usage line uses, with the long forms", async () => {
    const r = await cortex("search", "--help");
    expect(r.stdout).toContain("[--type t] [--tag t] [--lang l] [--path p]");
    for (const [short, long] of [
      ["--type", "--chunk-types"],
      ["--tag", "--tags"],
      ["--lang", "--language"],
      ["--path", "--paths"],
    ])
      expect(r.stdout).toMatch(new RegExp(`\\n {2}${short}, ${long} <string> {2,}\\S`));
    expect(r.stdout).toMatch(/--path, --paths <string> {2,}Only under these folders or files \(root-relative\) \(repeat for more\)/);
  });

  test("index takes --root like the other commands, or its path, not both", async () => {
    const plan = await cortex("index", "--root", p.root, "--dry-run", "--json");
    expect([plan.code, JSON.parse(plan.stdout).files]).toEqual([0, 1]);
    expect(await errors(["index", p.root, "--root", p.root, "--dry-run"])).toEqual([[2, "cortex: give the project as [path] or as --root <path>, not both\n"]]);
  });
});

describe("a missing argument says what to type", () => {
  test("commands with positional arguments", async () => {
    expect(
      await errors(
        ["grep"],
        ["exact"],
        ["refs"],
        ["occurrences"],
        ["concept"],
        ["search"],
        ["graph"],
        ["graph", "callers"],
        ["files"],
        ["files", "--operation", "query"],
      ),
    ).toEqual([
      [2, "cortex: cortex grep needs <pattern>: cortex grep <pattern> [options] (see cortex grep --help)\n"],
      [2, "cortex: cortex exact needs <query>: cortex exact <query> [options] (see cortex exact --help)\n"],
      [2, "cortex: cortex refs needs <symbol>: cortex refs <symbol> [options] (see cortex refs --help)\n"],
      [2, "cortex: cortex occurrences needs <name>: cortex occurrences <name> [options] (see cortex occurrences --help)\n"],
      [2, "cortex: cortex concept needs <description>: cortex concept <description> [options] (see cortex concept --help)\n"],
      [2, "cortex: cortex search needs <query>: cortex search <query> [options] (see cortex search --help)\n"],
      [2, "cortex: cortex graph needs <operation> and <target>: cortex graph <operation> <target> [options] (see cortex graph --help)\n"],
      [2, "cortex: cortex graph needs <target>: cortex graph <operation> <target> [options] (see cortex graph --help)\n"],
      // files' query is optional for its other operations: checked with the arguments all the same, before
      // an index is built (it was built first, for minutes on a large project)
      [2, "cortex: cortex files needs <json query>: cortex files <json query> [options] (see cortex files --help)\n"],
      [2, "cortex: cortex files needs <json query>: cortex files <json query> [options] (see cortex files --help)\n"],
    ]);
    expect(indexLocation(canonicalRoot(p.root)).current()).toBeUndefined();
  });

  test("extra words: a path goes after --path, a query of several words is quoted", async () => {
    expect(
      await errors(["grep", "TODO", "main.go"], ["grep", "TODO", "nowhere"], ["search", "how", "are", "sessions"], ["metadata", "x"], ["index", ".", "x"]),
    ).toEqual([
      [2, "cortex: too many arguments: main.go: cortex grep takes <pattern>; a path goes after --path (--path main.go) (see cortex grep --help)\n"],
      [2, "cortex: too many arguments: nowhere: cortex grep takes <pattern> (see cortex grep --help)\n"],
      [2, "cortex: too many arguments: are sessions: cortex search takes <query>; quote a query of several words (see cortex search --help)\n"],
      [2, "cortex: unexpected argument: x (cortex metadata takes none; see cortex metadata --help)\n"],
      [2, "cortex: unexpected argument: x (cortex index takes one [path]; see cortex index --help)\n"],
    ]);
  });

  test("required options are named by their flags", async () => {
    expect(await errors(["pattern", "f($X)"], ["pattern", "--lang", "go"], ["memory", "add"])).toEqual([
      [2, "cortex: cortex pattern needs --lang <language>: cortex pattern <pattern> --lang <language> [options] (see cortex pattern --help)\n"],
      [2, "cortex: cortex pattern needs <pattern>: cortex pattern <pattern> [options] (see cortex pattern --help)\n"],
      [
        2,
        "cortex: cortex memory add needs --type <type>, --category <category> and --memory <memory>: cortex memory add --type <type> --category <category> --memory <memory> [options] (see cortex memory add --help)\n",
      ],
    ]);
  });
});
