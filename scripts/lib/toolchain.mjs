// The project's pinned command-line tools and the APIs they work on, shared by the build scripts.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** API names as declared in redocly.yaml (`management`, `alerts`). */
export const apis = Object.keys(parse(readFileSync(join(root, "redocly.yaml"), "utf8")).apis);

// Redocly prints telemetry notices and update banners unless told not to.
const quietEnv = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

/** Runs a tool from node_modules/.bin with this Node binary (never npx), from the project root. */
export function runTool(tool, args, { capture = false } = {}) {
  const result = spawnSync(process.execPath, [join(root, "node_modules", ".bin", tool), ...args], {
    cwd: root,
    env: quietEnv,
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return result;
}
