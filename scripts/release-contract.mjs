// npm run release:contract [-- --out DIR]: writes build/ingestion-api-contract-<version>.tar.gz, the contract for
// teams that do not use npm (scripts/lib/contract-archive.mjs says what it holds); the same file `npm run docs`
// publishes in build/docs/downloads/. The same commit gives the same bytes.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildWhatIsStale } from "./lib/build-steps.mjs";
import { contractArchive } from "./lib/contract-archive.mjs";
import { root } from "./lib/toolchain.mjs";

let options;
try {
  ({ values: options } = parseArgs({ options: { out: { type: "string", default: join(root, "build") } } }));
} catch (error) {
  console.error(`release:contract: ${error.message}\nusage: npm run release:contract [-- --out DIR]   (DIR defaults to build/)`);
  process.exit(2);
}
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

let archive;
try {
  // The docs are rendered from the bundles: rebuilt when missing or older than them (as `npm test` and `npm start`
  // do), so the archive never pairs the bundles with docs of an earlier state. Rendering is deterministic.
  buildWhatIsStale("release:contract", ["docs"]);
  archive = contractArchive({ docsDir: join(root, "build", "docs"), version });
} catch (error) {
  console.error(`release:contract: nothing written: ${error.message}`);
  process.exit(1);
}
const out = resolve(options.out);
mkdirSync(out, { recursive: true });
const target = join(out, archive.name);
writeFileSync(target, archive.data);
const shown = target.startsWith(`${root}/`) ? relative(root, target) : target;
console.log(`release:contract: wrote ${shown}: ${archive.files} files, ${(archive.data.length / 1024).toFixed(1)} kB (${archive.data.length} bytes)`);
