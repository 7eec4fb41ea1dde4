/**
 * Structural search with ast-grep (cortex_pattern): the engine, the ast-grep executable it runs (pinned,
 * downloaded and verified on first use), and the rule and language vocabulary its callers validate with.
 */
export { PatternEngine, DEFAULT_TIMEOUT_MS, type PatternSearch, type PatternResult, type SearchControl, type EngineSettings } from "./engine.ts";
export type { PatternMatch } from "./results.ts";
export { resolveAstGrep, versionOf, type AstGrepBinary, type ResolveOptions } from "./install.ts";
export { AST_GREP_VERSION, RELEASES, currentRelease, archiveUrl, type PlatformRelease, type DownloadSource } from "./release.ts";
export { PATTERN_LANGUAGES, LANGUAGE_NAMES, patternLanguage, type PatternLanguage } from "./languages.ts";
export { ruleSchema, STRICTNESS, type Rule, type Strictness } from "./rule.ts";
