#!/usr/bin/env bun
/**
 * Re-records ripgrep's output for the `cortex grep` parity cases (test/helpers/ripgrep-oracle.ts) into
 * test/fixtures/grep-parity.ripgrep.json. Run it after changing the fixture or the cases, on a machine with
 * ripgrep (`apt-get install ripgrep`):
 *
 *   bun scripts/record-ripgrep-oracle.ts
 *
 * ripgrep runs on a copy of the fixture in a temporary folder, so no ignore file of this repository applies.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  fixtureDigest,
  PARITY_CASES,
  PARITY_FIXTURE,
  PARITY_RECORDING,
  ripgrepPath,
  ripgrepVersion,
  runRipgrep,
  type ParityRecording,
} from "../test/helpers/ripgrep-oracle.ts";

const rg = ripgrepPath();
if (rg === undefined) {
  console.error("record-ripgrep-oracle: ripgrep (rg) is not installed; install it (apt-get install ripgrep) and run again");
  process.exit(2);
}

const copy = mkdtempSync(join(tmpdir(), "grep-parity-"));
try {
  cpSync(PARITY_FIXTURE, copy, { recursive: true });
  const recording: ParityRecording = {
    ripgrep_version: ripgrepVersion(rg),
    fixture_sha256: fixtureDigest(),
    cases: PARITY_CASES.map((c) => {
      const stdout = runRipgrep(rg, copy, c.rg);
      if (stdout === "") throw new Error(`rg ${c.rg.join(" ")} matched nothing: every case must match something`);
      return { ...c, stdout };
    }),
  };
  writeFileSync(PARITY_RECORDING, JSON.stringify(recording, null, 2) + "\n");
  console.log(`recorded ${recording.cases.length} cases with ${recording.ripgrep_version} into ${PARITY_RECORDING}`);
} finally {
  rmSync(copy, { recursive: true, force: true });
}
