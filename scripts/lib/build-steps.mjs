// The build steps other commands depend on, with what each reads and writes, so `npm test` and `npm start`
// run just the ones whose outputs are missing or older than an input (as make would), and nothing else.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { root } from "./toolchain.mjs";

/** In the order they depend on each other; each is an npm script of package.json. */
export const buildSteps = [
  {
    script: "generate",
    // Everything the generate step runs lives in scripts/lib and src/contract (the OpenAPI walker and the validator
    // formats), so any change there may change its outputs.
    inputs: ["openapi/management", "openapi/alerts", "redocly.yaml", "contract/cases", "package.json", "scripts/generate.mjs", "scripts/lib", "src/contract"],
    outputs: ["generated", "contract/schemas", "contract/vectors"],
  },
  {
    script: "compile",
    inputs: [
      "src",
      "generated/types",
      "generated/validators",
      "generated/package.ts",
      "generated/rate-limits.ts",
      "generated/settings-fields.ts",
      "scripts/compile.mjs",
      "tsconfig.build.json",
      "package.json",
    ],
    outputs: ["dist/index.js", "dist/index.cjs", "dist/src/index.d.ts"],
  },
  {
    script: "docs",
    inputs: [
      "generated/openapi",
      "examples",
      "redocly.yaml",
      "package.json",
      "scripts/docs.mjs",
      "scripts/lib/docs-landing.mjs",
      "scripts/lib/html.mjs",
      "scripts/lib/static-reference.mjs",
      "scripts/lib/reference-styles.mjs",
      "scripts/lib/code-samples.mjs",
      // What code-samples.mjs reads: the generators, the example requests and the sandbox's credentials the samples carry.
      "src/samples",
      "src/contract",
      "src/sandbox/default-credentials.json",
      // What the playground bundles: the SDK, the sandbox, the validators and the generators above.
      "scripts/lib/playground-page.mjs",
      "src/playground",
      "src/client",
      "src/sandbox",
      "generated/validators",
      // What the downloads hold beside the pages: the release archive's files and the wheel's.
      "scripts/lib/downloads.mjs",
      "scripts/lib/contract-archive.mjs",
      "scripts/lib/tar.mjs",
      "scripts/lib/wheel.mjs",
      "scripts/lib/zip.mjs",
      "contract/schemas",
      "contract/vectors",
      "contract/check_vectors.py",
      "contract/python",
      "CONTRACT.md",
      "openapi/DECISIONS.md",
    ],
    outputs: [
      "build/docs/index.html",
      "build/docs/management.html",
      "build/docs/alerts.html",
      "build/docs/playground.html",
      "build/docs/playground.js",
      "build/docs/openapi",
      "build/docs/downloads",
    ],
  },
];

/** Modification times of a file, or of every file under a folder; none when it does not exist. */
function modificationTimes(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  const stat = statSync(full);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs);
}

/** Why a step must run, or undefined when its outputs are all there and newer than its inputs. */
export function staleness({ inputs, outputs }) {
  const missing = outputs.find((output) => modificationTimes(output).length === 0);
  if (missing) return `${missing} is missing`;
  const builtAt = Math.min(...outputs.flatMap(modificationTimes));
  const changed = inputs.find((input) => modificationTimes(input).some((time) => time > builtAt));
  return changed ? `${changed} changed since the last build` : undefined;
}

/**
 * Runs, in order, each of the named steps (all by default) whose outputs are stale. A step that ran makes
 * the later ones that read its outputs stale in turn, so they run too.
 */
export function buildWhatIsStale(label, scripts = buildSteps.map((step) => step.script)) {
  for (const step of buildSteps.filter((candidate) => scripts.includes(candidate.script))) {
    const reason = staleness(step);
    if (!reason) continue;
    console.error(`${label}: npm run ${step.script} (${reason})`);
    // The npm that runs us, else the one on PATH. Output goes to stderr, so the caller's stdout stays its own.
    const npm = process.env.npm_execpath;
    const [command, args] = npm ? [process.execPath, [npm, "run", "--silent", step.script]] : ["npm", ["run", "--silent", step.script]];
    const run = spawnSync(command, args, { cwd: root, stdio: ["ignore", process.stderr, "inherit"] });
    if (run.status !== 0) throw new Error(`${label}: npm run ${step.script} failed${run.error ? `: ${run.error.message}` : ""}`);
  }
}
