/**
 * Which tools a server exposes. Profiles group the tools of the systems cortex replaces; the default
 * serves every capability once, leaving out tools that duplicate another's job.
 */
import type { ToolDefinition } from "../tools/define.ts";
import { CortexError } from "../core/errors.ts";

export const PROFILES = ["cortex", "kit", "codebase-context", "all", "default"] as const;

/**
 * The default: the cortex profile, plus the tools of the other profiles that add something cortex's own
 * tools do not (names listed in DUPLICATES are left out because a cortex tool does the same job).
 */
const DUPLICATES: Record<string, string> = {
  // search_text_pattern stays: it alone answers regular expressions (cortex_exact's queries are keywords)
  search_semantic_concept: "cortex_search",
  refresh_index: "(the server re-indexes on its own as files change)",
};

export function selectTools(all: ToolDefinition[], spec: string | undefined): ToolDefinition[] {
  const wanted = (spec ?? "default")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  // `--tools ""` (an unset variable in a client's config) served nothing, with instructions naming nothing
  if (wanted.length === 0)
    throw new CortexError("INVALID_INPUT", `--tools: no tool or profile given (profiles: ${PROFILES.join(", ")}; tools: ${all.map((x) => x.name).join(", ")})`);
  const chosen = new Map<string, ToolDefinition>();
  for (const w of wanted) {
    if (w === "all") all.forEach((t) => chosen.set(t.name, t));
    else if (w === "default") all.filter((t) => t.profiles.includes("cortex") || !(t.name in DUPLICATES)).forEach((t) => chosen.set(t.name, t));
    else if (w === "cortex" || w === "kit" || w === "codebase-context") all.filter((t) => t.profiles.includes(w)).forEach((t) => chosen.set(t.name, t));
    else {
      const t = all.find((x) => x.name === w);
      if (!t)
        throw new CortexError(
          "INVALID_INPUT",
          `--tools: unknown tool or profile '${w}' (profiles: ${PROFILES.join(", ")}; tools: ${all.map((x) => x.name).join(", ")})`,
        );
      chosen.set(t.name, t);
    }
  }
  // keep registry order
  return all.filter((t) => chosen.has(t.name));
}
