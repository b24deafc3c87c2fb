// npm run generate: rewrites generated/ from openapi/ (bundles, TypeScript types, validators),
// contract/schemas/ from the bundles, and contract/vectors/ from contract/cases/.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { generateInto } from "./lib/generated.mjs";
import { standaloneSchemaFiles } from "./lib/standalone-schemas.mjs";
import { apis, root } from "./lib/toolchain.mjs";
import { vectorFiles } from "./lib/vectors.mjs";

/** Replaces the folder `dir` with `files` ({relative path: text}). */
function writeFolder(dir, files) {
  rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

await generateInto(join(root, "generated"));
const schemas = standaloneSchemaFiles();
writeFolder(join(root, "contract", "schemas"), schemas);
const vectors = await vectorFiles();
writeFolder(join(root, "contract", "vectors"), vectors);
const count = Object.values(vectors).reduce((n, text) => n + JSON.parse(text).length, 0);
console.log(
  `generate: wrote generated/{openapi,types,validators}/ for ${apis.join(", ")}, ${Object.keys(schemas).length} standalone schemas under contract/schemas/ and ${count} vectors under contract/vectors/`,
);
