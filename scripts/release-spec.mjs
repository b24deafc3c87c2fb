// npm run release:spec: records the current bundles under openapi/released/, the baseline of `npm run check:breaking`.
// Refuses unless package.json's version is each spec's info.version (they move together), and refuses to change
// what an already released version says.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { apis, root } from "./lib/toolchain.mjs";

const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const currentPath = (api) => join(root, "generated", "openapi", `${api}.json`);
const releasedPath = (api) => join(root, "openapi", "released", `${api}.json`);
const versionOf = (file) => JSON.parse(readFileSync(file, "utf8")).info.version;

const problems = apis.flatMap((api) => {
  if (versionOf(currentPath(api)) !== version) return [`${api} has info.version ${versionOf(currentPath(api))}, package.json ${version}`];
  const rewritesRelease =
    existsSync(releasedPath(api)) && versionOf(releasedPath(api)) === version && !readFileSync(releasedPath(api)).equals(readFileSync(currentPath(api)));
  return rewritesRelease ? [`${api} ${version} is already released with other content; bump the version`] : [];
});
if (problems.length > 0) {
  console.error(`release:spec: nothing recorded: ${problems.join("; ")}`);
  process.exit(1);
}

mkdirSync(join(root, "openapi", "released"), { recursive: true });
for (const api of apis) copyFileSync(currentPath(api), releasedPath(api));
console.log(`release:spec: recorded ${apis.map((api) => `${api}.json`).join(", ")} at ${version} under openapi/released/`);
