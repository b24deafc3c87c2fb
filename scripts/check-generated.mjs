// npm run check:generated: fails when generated/, contract/schemas/ or contract/vectors/ differs from what
// `npm run generate` would write now.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { generateInto } from "./lib/generated.mjs";
import { standaloneSchemaFiles } from "./lib/standalone-schemas.mjs";
import { root } from "./lib/toolchain.mjs";
import { vectorFiles } from "./lib/vectors.mjs";

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** How the committed files under `dir` (shown as `label`) differ from `expected` ({relative path: contents}). */
function drift(label, dir, expected) {
  const actual = filesUnder(dir);
  const wanted = Object.keys(expected).sort();
  return [
    ...wanted.filter((f) => !actual.includes(f)).map((f) => `missing  ${label}/${f}`),
    ...actual.filter((f) => !wanted.includes(f)).map((f) => `extra    ${label}/${f}`),
    ...wanted
      .filter((f) => actual.includes(f))
      .filter((f) => !Buffer.from(expected[f]).equals(readFileSync(join(dir, f))))
      .map((f) => `stale    ${label}/${f}`),
  ];
}

const fresh = mkdtempSync(join(tmpdir(), "ingestion-api-generated-"));
try {
  await generateInto(fresh);
  const generated = Object.fromEntries(filesUnder(fresh).map((f) => [f, readFileSync(join(fresh, f))]));
  const vectors = await vectorFiles(join(fresh, "openapi"));
  const schemas = standaloneSchemaFiles(join(fresh, "openapi"));
  const drifted = [
    ...drift("generated", join(root, "generated"), generated),
    ...drift("contract/schemas", join(root, "contract", "schemas"), schemas),
    ...drift("contract/vectors", join(root, "contract", "vectors"), vectors),
  ];
  if (drifted.length > 0) {
    console.error(`check:generated: out of date; run \`npm run generate\` and commit:\n  ${drifted.join("\n  ")}`);
    process.exit(1);
  }
  const total = Object.keys(generated).length + Object.keys(schemas).length + Object.keys(vectors).length;
  console.log(`check:generated: generated/, contract/schemas/ and contract/vectors/ match the specs and the cases (${total} files)`);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
