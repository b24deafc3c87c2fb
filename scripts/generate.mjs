// npm run generate: rewrites generated/ from openapi/ (bundles, TypeScript types, validators) and
// contract/vectors/ from contract/cases/.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { generateInto } from "./lib/generated.mjs";
import { apis, root } from "./lib/toolchain.mjs";
import { vectorFiles } from "./lib/vectors.mjs";

await generateInto(join(root, "generated"));

const files = await vectorFiles();
const vectorsDir = join(root, "contract", "vectors");
rmSync(vectorsDir, { recursive: true, force: true });
for (const [file, text] of Object.entries(files)) {
  mkdirSync(dirname(join(vectorsDir, file)), { recursive: true });
  writeFileSync(join(vectorsDir, file), text);
}
const count = Object.values(files).reduce((n, text) => n + JSON.parse(text).length, 0);
console.log(`generate: wrote generated/{openapi,types,validators}/ for ${apis.join(", ")} and ${count} vectors under contract/vectors/`);
