// Files imported `with { type: "file" }` resolve to a path (embedded into the executable by bun build).
declare module "*.wasm" {
  const path: string;
  export default path;
}
