/** Content hashes: sha256 hex for anything stored or compared across runs. */

export function sha256(data: string | Uint8Array): string {
  // the static form: a hasher object per call cost a third more (a chunk's text key per chunk)
  return Bun.CryptoHasher.hash("sha256", data, "hex");
}

/** A short stable hash for ids (first 16 hex chars of sha256). */
export function shortHash(data: string): string {
  return sha256(data).slice(0, 16);
}

/** Hex digits of a text key: 64 bits. */
export const TEXT_KEY_HEX = 16;

/**
 * The key of a text in the vector cache and the index (chunk_rows.text_hash): the first 64 bits of its
 * sha256, hex. Nothing adversarial chooses chunk texts, and two that share a key share a vector, no more:
 * at 64 bits that is about 3 in a million for ten million texts in one cache, and a quarter of the whole
 * hash's bytes (boost: 128 bits took 6.2 MiB of its index, the whole hash 12.5).
 */
export function textKey(text: string): string {
  return sha256(text).slice(0, TEXT_KEY_HEX);
}
