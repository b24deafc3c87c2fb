// npm run generate (second step): writes contract/vectors/<api>/<operationId>.json from the hand-written cases
// in contract/cases/<api>.mjs. `vectorFiles()` is also used by check-generated.mjs to spot drift.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { apis, root } from "./toolchain.mjs";

const parts = ["params", "request", "response"];
const verdicts = ["valid", "invalid"];

/** The vector files as `{ "<api>/<operationId>.json": text }`, after checking every vector's shape. */
export async function vectorFiles() {
  const files = {};
  for (const api of apis) {
    const { vectors } = await import(pathToFileURL(join(root, "contract", "cases", `${api}.mjs`)).href);
    for (const operation of new Set(vectors.map((vector) => vector.operation))) {
      const list = vectors.filter((vector) => vector.operation === operation);
      const seen = new Set();
      for (const { part, name, verdict, rule, value } of list) {
        const id = `${operation} ${part} "${name}"`;
        if (!parts.includes(part) || !verdicts.includes(verdict) || !name || !rule || value === undefined) throw new Error(`vector ${id} is malformed`);
        if (seen.has(`${part} ${name}`)) throw new Error(`vector ${id} appears twice`);
        seen.add(`${part} ${name}`);
      }
      files[`${api}/${operation}.json`] = `${JSON.stringify(list, null, 2)}\n`;
    }
  }
  return files;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = await vectorFiles();
  const outDir = join(root, "contract", "vectors");
  rmSync(outDir, { recursive: true, force: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    writeFileSync(join(outDir, file), text);
  }
  const count = Object.values(files).reduce((n, text) => n + JSON.parse(text).length, 0);
  console.log(`generate-vectors: wrote ${count} vectors in ${Object.keys(files).length} files under contract/vectors/`);
}
