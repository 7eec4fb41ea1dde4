/** Content hashes: sha256 hex for anything stored or compared across runs. */

export function sha256(data: string | Uint8Array): string {
  // the static form: a hasher object per call cost a third more (a chunk's text key per chunk)
  return Bun.CryptoHasher.hash("sha256", data, "hex");
}

/** A short stable hash for ids (first 16 hex chars of sha256). */
export function shortHash(data: string): string {
  return sha256(data).slice(0, 16);
}

/**
 * The key of a text in the vector cache and the index (chunk_rows.text_hash): the first 128 bits of its
 * sha256, hex. Nothing adversarial chooses chunk texts, so 128 bits keep collisions out of reach (about
 * 1e-20 for a billion texts) at half the bytes of the whole hash (boost: 5.9 MiB of its index).
 */
export function textKey(text: string): string {
  return sha256(text).slice(0, 32);
}
