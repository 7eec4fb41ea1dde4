/**
 * The steps every index run performs after writing the facts, in order: the engines' contributions to
 * the index, chosen here at the composition root so the indexer imports no engine. Every run of a
 * project's index (the session's, the index thread's, the tests') passes this list.
 */
import type { IndexHook } from "../indexer/hooks.ts";
import { referenceResolution } from "../engines/symbols/resolve-hook.ts";
import { gitHistory } from "../indexer/history-hook.ts";

export const INDEX_HOOKS: readonly IndexHook[] = [referenceResolution, gitHistory];
