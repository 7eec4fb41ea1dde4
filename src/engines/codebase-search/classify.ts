/**
 * What a file is and which layer it belongs to, from its path alone (`componentType:layer`, as
 * codebase-context reports a result's type). codebase-context reads Angular decorators; a path works for
 * every language because projects name folders and files after roles (controllers/, user_service.py,
 * OrderRepository.java, use-auth.ts). Tokens are the path's words split at case changes and separators,
 * singular; the first rule that matches, scanning from the file name towards the root, wins.
 */

export const LAYERS = ["presentation", "application", "domain", "data", "infrastructure", "test", "docs", "config", "unknown"] as const;
export type Layer = (typeof LAYERS)[number];

export interface FileClass {
  componentType: string;
  layer: Layer;
}

/** Role words, each with the component type it names and the layer that component lives in. */
const ROLES: Array<[words: string[], componentType: string, layer: Layer]> = [
  [["controller", "handler", "endpoint", "resource", "view", "viewset", "route", "router", "url", "api"], "controller", "presentation"],
  [["component", "page", "screen", "widget", "template", "layout", "ui", "frontend"], "component", "presentation"],
  [["hook"], "hook", "presentation"],
  [["cli", "cmd", "command"], "command", "presentation"],
  [["middleware", "interceptor", "filter", "guard"], "middleware", "application"],
  [["service", "usecase", "interactor", "manager", "workflow", "job", "worker", "task"], "service", "application"],
  [["domain", "entity", "aggregate", "valueobject", "policy", "rule"], "entity", "domain"],
  [["model", "schema", "dto", "type", "record"], "model", "data"],
  [["repository", "repo", "dao", "store", "storage", "db", "database", "migration", "query", "persistence", "orm", "cache"], "repository", "data"],
  [["client", "adapter", "gateway", "integration", "transport", "provider", "driver"], "client", "infrastructure"],
  [["util", "helper", "lib", "common", "shared", "core", "support", "internal", "pkg"], "utility", "infrastructure"],
  [["config", "configuration", "setting", "settings", "env", "constant"], "config", "config"],
];

const DOC_EXT = /\.(md|mdx|markdown|rst|txt|adoc)$/i;
const CONFIG_EXT = /\.(json|ya?ml|toml|ini|cfg|conf|xml|gradle|properties|lock)$/i;

/** A path's words, lower-case and singular: `src/UserServices/order_repo.ts` → src, user, service, order, repo. */
export function pathWords(path: string): string[] {
  return path
    .replace(/\.[A-Za-z0-9]+$/, "")
    .split(/[\\/._\-\s]+/)
    .flatMap((seg) => seg.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/))
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 0)
    .map((w) =>
      w.length > 4 && w.endsWith("ies") ? w.slice(0, -3) + "y" : w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") ? w.slice(0, -1) : w,
    );
}

export function classifyFile(path: string, isTest: boolean): FileClass {
  if (isTest) return { componentType: "test", layer: "test" };
  if (DOC_EXT.test(path)) return { componentType: "doc", layer: "docs" };
  const words = pathWords(path);
  // the file name speaks first (user_service.py in models/ is a service), then folders from the nearest
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i]!;
    for (const [names, componentType, layer] of ROLES) if (names.includes(w)) return { componentType, layer };
  }
  if (CONFIG_EXT.test(path)) return { componentType: "config", layer: "config" };
  return { componentType: "module", layer: "unknown" };
}

export function typeLabel(c: FileClass): string {
  return `${c.componentType}:${c.layer}`;
}
