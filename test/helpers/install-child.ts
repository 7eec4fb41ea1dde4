/**
 * Run as a separate process by the install tests: resolves ast-grep into the bin folder given as the
 * first argument (mirror and offline settings come from the environment) and prints the result as JSON.
 */
import { resolveAstGrep } from "../../src/engines/structural/install.ts";

const binDir = process.argv[2];
if (!binDir) throw new Error("usage: install-child.ts <binDir>");
try {
  const b = await resolveAstGrep({ binDir });
  process.stdout.write(JSON.stringify(b) + "\n");
} catch (e) {
  process.stdout.write(JSON.stringify({ error: (e as Error).message }) + "\n");
  process.exit(3);
}
