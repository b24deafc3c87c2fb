// npm run check:breaking [-- <base.json> <head.json>]: lists every change of head that breaks a client written
// against base, and exits 1 if there is one (2 if it cannot decide). The rules: scripts/lib/breaking-changes.mjs.
import { checkBreaking } from "./lib/breaking-changes.mjs";
import { root } from "./lib/toolchain.mjs";

const { status, out, err } = checkBreaking(process.argv.slice(2), { root });
for (const line of out) console.log(line);
for (const line of err) console.error(line);
process.exitCode = status;
