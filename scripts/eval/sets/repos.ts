/**
 * The repositories the generated query sets come from, each pinned to the commit that was fetched (its
 * HEAD on the day: 2026-11-26 for the first sixteen, 2026-11-27 for the last eight). None is a SWE-bench
 * repository. Three per language: two in dev, one in test, so that a ranking change tuned on dev has to
 * hold on two codebases of a language before the test split sees it, and a language's dev figures and test
 * figures never come from the same code. The second dev repositories come last, so their rows follow the
 * first sixteen's in every data file and those stay as they were. To regenerate the sets, fetch each
 * `github:<repo>` (the lead's `fetch` tool leaves a bare repository in `<mirrors>/<owner>+<name>/repo`) and
 * run scripts/eval/build-sets.ts; the pins below are what it reads, so a newer snapshot yields the same rows.
 */

export type Split = "dev" | "test";

export interface PinnedRepo {
  repo: string;
  language: string;
  split: Split;
  /** The HEAD fetched; the docstring set indexes it, the commit set samples its recent history. */
  commit: string;
}

export const PINNED_REPOS: PinnedRepo[] = [
  { repo: "pallets/click", language: "python", split: "dev", commit: "2c8cd3ac958a7eb316d67f2d316c27086c4c0369" },
  { repo: "encode/httpx", language: "python", split: "test", commit: "ae1b9f66238f75ced3ced5e4485408435de10768" },
  { repo: "spf13/cobra", language: "go", split: "dev", commit: "adbc8813901bba65827259daa8e22ff94ec1f30e" },
  { repo: "gin-gonic/gin", language: "go", split: "test", commit: "dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9" },
  { repo: "honojs/hono", language: "typescript", split: "dev", commit: "28a9c128912de19f3fb28b00ae289c9b93f6f392" },
  { repo: "colinhacks/zod", language: "typescript", split: "test", commit: "e516c3baf22615e20934116abebfed6c000222c2" },
  { repo: "serde-rs/json", language: "rust", split: "dev", commit: "827a315bf2198558f0325b07bcc1e2cd973aba2f" },
  { repo: "BurntSushi/ripgrep", language: "rust", split: "test", commit: "3fce3b5bb0236da2df6d99672afb8a719642eca7" },
  { repo: "square/javapoet", language: "java", split: "dev", commit: "b9017a9503b76e11b4ad4c1a9f050e2d29112cb0" },
  { repo: "google/gson", language: "java", split: "test", commit: "9835b6f90192f79cdf5300c528fc6212455fb6c1" },
  { repo: "sinatra/sinatra", language: "ruby", split: "dev", commit: "cb22afd7902b566b6eaba6c4ea89739494a65d12" },
  { repo: "rack/rack", language: "ruby", split: "test", commit: "8bf4eb078498edc9105fb04add80d89c5340e60b" },
  { repo: "slimphp/Slim", language: "php", split: "dev", commit: "038fd5713d5a41636fdff0e8dcceedecdd17fc17" },
  { repo: "guzzle/guzzle", language: "php", split: "test", commit: "2779e868a00289e1b1fd854af030c43a06f4bcb4" },
  { repo: "jqlang/jq", language: "c", split: "dev", commit: "579e6f76cffd7643ba4002a2c3618a5ea710589a" },
  { repo: "libuv/libuv", language: "c", split: "test", commit: "6179e7af87413396d5853a1c3722c8b5749336c8" },
  // the second dev repository of each language (2026-11-27): what was tuned on one did not carry to test
  { repo: "pallets/jinja", language: "python", split: "dev", commit: "5ef70112a1ff19c05324ff889dd30405b1002044" },
  { repo: "urfave/cli", language: "go", split: "dev", commit: "1305a08200f7c4d873e28bd2bbad1ff257c6cfc4" },
  { repo: "immerjs/immer", language: "typescript", split: "dev", commit: "061c2425e1c9dff89e4e4189d42af1b7839dfe0a" },
  { repo: "clap-rs/clap", language: "rust", split: "dev", commit: "6982fb1c98c7247e38a6d4f04191b94e30497e7b" },
  { repo: "FasterXML/jackson-core", language: "java", split: "dev", commit: "b367da1c30a25e99fbf2c30876e948b578c86846" },
  { repo: "ruby/rake", language: "ruby", split: "dev", commit: "474500ab2eec41ef28068e18e30f84fa412a098f" },
  { repo: "Seldaek/monolog", language: "php", split: "dev", commit: "57eb1028342134e701e77c617565d51b6e5a2a53" },
  { repo: "tmux/tmux", language: "c", split: "dev", commit: "c1f947a3c5bc72a40c32dead736f84c4628791ec" },
];
