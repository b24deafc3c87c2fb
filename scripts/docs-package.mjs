// npm run docs:package: the companion package `ingestion-api-docs` of this version, from build/docs (npm run docs):
// build/ingestion-api-docs/ and its tarball build/ingestion-api-docs-<version>.tgz, to publish beside the main
// package from the same commit. `npx ingestion-api docs` serves it; the pages stay out of the main package, which
// serverless functions and containers install, because they are 8 MB with the downloads.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/toolchain.mjs";

// The name src/docs/pages.ts looks for (the docs command's test packs this and finds it by that name).
const docsPackage = "ingestion-api-docs";

const main = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const docs = join(root, "build", "docs");
if (!existsSync(join(docs, "index.html"))) {
  console.error("docs:package: build/docs has no pages; run `npm run docs` (or `npm run build`) first");
  process.exit(1);
}
const out = join(root, "build", docsPackage);
rmSync(out, { recursive: true, force: true });
cpSync(docs, join(out, "docs"), { recursive: true });
writeFileSync(
  join(out, "package.json"),
  `${JSON.stringify(
    {
      name: docsPackage,
      version: main.version,
      description: `The rendered API references of ${main.name} ${main.version}: npx ${main.name} docs serves them`,
      license: main.license,
      files: ["docs"],
    },
    null,
    2,
  )}\n`,
);
writeFileSync(
  join(out, "README.md"),
  `# ${docsPackage}\n\nThe rendered references of \`${main.name}\` ${main.version} (management and alerting), as static pages under \`docs/\`.\nServe them with \`npx ${main.name} docs\`, which finds this package installed beside \`${main.name}\` or fetches it.\n`,
);
const packed = spawnPack(out);
console.log(`docs:package: wrote build/${docsPackage}/ and build/${packed} (${Math.round(statSync(join(root, "build", packed)).size / 1024)} kB)`);

/** `npm pack`s a folder into build/; the tarball's name. */
function spawnPack(folder) {
  const result = spawnSync("npm", ["pack", folder, "--pack-destination", join(root, "build"), "--json", "--silent"], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`npm pack ${folder} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout)[0].filename;
}
