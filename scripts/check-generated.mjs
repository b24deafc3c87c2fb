// npm run check:generated: fails when generated/ differs from what `npm run generate` would write now.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { generate } from "./generate.mjs";
import { root } from "./toolchain.mjs";

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

const committed = join(root, "generated");
const fresh = mkdtempSync(join(tmpdir(), "ingestion-api-generated-"));
try {
  await generate(fresh);
  const expected = filesUnder(fresh);
  const actual = filesUnder(committed);
  const drifted = [
    ...expected.filter((f) => !actual.includes(f)).map((f) => `missing  generated/${f}`),
    ...actual.filter((f) => !expected.includes(f)).map((f) => `extra    generated/${f}`),
    ...expected
      .filter((f) => actual.includes(f))
      .filter((f) => !readFileSync(join(fresh, f)).equals(readFileSync(join(committed, f))))
      .map((f) => `stale    generated/${f}`),
  ];
  if (drifted.length > 0) {
    console.error(`check:generated: generated/ is out of date; run \`npm run generate\` and commit:\n  ${drifted.join("\n  ")}`);
    process.exit(1);
  }
  console.log(`check:generated: generated/ matches the specs (${expected.length} files)`);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
