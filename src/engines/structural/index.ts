/**
 * Structural search with ast-grep (cortex_pattern): the engine, the ast-grep executable it runs (pinned,
 * downloaded and verified on first use), and the rule and language vocabulary its callers validate with.
 */
export { PatternEngine, DEFAULT_TIMEOUT_MS, type PatternSearch, type PatternResult, type SearchControl } from "./engine.ts";
export { resolveAstGrep } from "./install.ts";
export { LANGUAGE_NAMES, patternLanguage } from "./languages.ts";
export { ruleSchema, STRICTNESS } from "./rule.ts";
