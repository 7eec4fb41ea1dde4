/** Content hashes: sha256 hex for anything stored or compared across runs. */

export function sha256(data: string | Uint8Array): string {
  const h = new Bun.CryptoHasher("sha256");
  h.update(data);
  return h.digest("hex");
}

/** A short stable hash for ids (first 16 hex chars of sha256). */
export function shortHash(data: string): string {
  return sha256(data).slice(0, 16);
}
