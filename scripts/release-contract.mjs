// npm run release:contract [-- --out DIR]: writes build/ingestion-api-contract-<version>.tar.gz, the contract for
// teams that do not use npm: the bundles (3.1, 3.0 twin, dereferenced; JSON and YAML), the standalone schemas, the
// vectors with check_vectors.py, CONTRACT.md, DECISIONS.md, the rendered docs and a SHA256SUMS. Inside its top
// folder the files keep the checkout's layout (check_vectors.py finds the bundles at ../generated/openapi, as in a
// checkout), and the docs are build/docs as `npm start` serves them. The same commit gives the same bytes.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildWhatIsStale } from "./lib/build-steps.mjs";
import { tarGzip } from "./lib/tar.mjs";
import { apis, root } from "./lib/toolchain.mjs";

let options;
try {
  ({ values: options } = parseArgs({ options: { out: { type: "string", default: join(root, "build") } } }));
} catch (error) {
  console.error(`release:contract: ${error.message}\nusage: npm run release:contract [-- --out DIR]   (DIR defaults to build/)`);
  process.exit(2);
}
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const top = `ingestion-api-contract-${version}`;

// The docs are rendered from the bundles: rebuilt when missing or older than them (as `npm test` and `npm start`
// do), so the archive never pairs the bundles with docs of an earlier state. Rendering is deterministic.
try {
  buildWhatIsStale("release:contract", ["docs"]);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const jsonFilesIn = (folder) =>
  readdirSync(join(root, folder))
    .filter((name) => name.endsWith(".json"))
    .map((name) => `${folder}/${name}`);

// [path in the checkout, path in the archive]
const sources = [
  ...apis.flatMap((api) =>
    ["", ".openapi-3.0", ".dereferenced"].flatMap((variant) => ["json", "yaml"].map((extension) => `generated/openapi/${api}${variant}.${extension}`)),
  ),
  ...apis.flatMap((api) => [...jsonFilesIn(`contract/schemas/${api}`), ...jsonFilesIn(`contract/vectors/${api}`)]),
  "contract/check_vectors.py",
  "CONTRACT.md",
  "openapi/DECISIONS.md",
].map((path) => [path, path]);
for (const page of ["index", ...apis]) sources.push([`build/docs/${page}.html`, `docs/${page}.html`]);
for (const api of apis) for (const extension of ["json", "yaml"]) sources.push([`build/docs/openapi/${api}.${extension}`, `docs/openapi/${api}.${extension}`]);

const missing = sources.filter(([from]) => !existsSync(join(root, from))).map(([from]) => from);
if (missing.length > 0) {
  console.error(`release:contract: nothing written: missing ${missing.join(", ")} (npm run build makes them)`);
  process.exit(1);
}

// The bundles name their version too; an archive named after another one would misstate what it holds.
const misversioned = apis.filter((api) => JSON.parse(readFileSync(join(root, "generated", "openapi", `${api}.json`), "utf8")).info.version !== version);
if (misversioned.length > 0) {
  console.error(`release:contract: nothing written: the ${misversioned.join(" and ")} bundle's info.version is not package.json's ${version}`);
  process.exit(1);
}

// In path order, as the archive lists them: a folder's listing comes in whatever order the file system keeps.
const files = sources
  .map(([from, path]) => ({
    path,
    data: readFileSync(join(root, from)),
    // Executable in git, so `./contract/check_vectors.py` runs unpacked as it does in a checkout.
    mode: path === "contract/check_vectors.py" ? 0o755 : 0o644,
  }))
  .sort((a, b) => (a.path < b.path ? -1 : 1));
const sums = files.map(({ path, data }) => `${createHash("sha256").update(data).digest("hex")}  ${path}\n`).join("");
files.push({ path: "SHA256SUMS", data: Buffer.from(sums), mode: 0o644 });

const archive = tarGzip(files.map((file) => ({ ...file, path: `${top}/${file.path}` })));
const out = resolve(options.out);
mkdirSync(out, { recursive: true });
const target = join(out, `${top}.tar.gz`);
writeFileSync(target, archive);
const shown = target.startsWith(`${root}/`) ? relative(root, target) : target;
console.log(`release:contract: wrote ${shown}: ${files.length} files, ${(archive.length / 1024).toFixed(1)} kB (${archive.length} bytes)`);
