// A consumer project: a temporary folder with the package installed as `npm install` installs it, without the
// network: the shipped files in node_modules/ingestion-api, its dependencies linked from this checkout's
// node_modules, its command linked in node_modules/.bin, and a package.json (an ES module) that depends on it.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../../scripts/lib/toolchain.mjs";

export interface ConsumerProject {
  dir: string;
  /** node_modules/ingestion-api */
  installed: string;
  remove(): void;
}

interface Manifest {
  version: string;
  files: string[];
  dependencies: Record<string, string>;
  bin: Record<string, string>;
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;

/**
 * Installs the package from `tarball` (as `npm pack` made it), or else from this checkout: package.json and what its
 * `files` ship (dist/ as last built), copied, not linked, so a build running meanwhile cannot change them half-way.
 */
export function createConsumerProject(tarball?: string): ConsumerProject {
  const dir = mkdtempSync(join(tmpdir(), "ingestion-api-consumer-"));
  const installed = join(dir, "node_modules", "ingestion-api");
  mkdirSync(installed, { recursive: true });
  if (tarball) {
    const untar = spawnSync("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"], { encoding: "utf8" });
    if (untar.status !== 0) throw new Error(`cannot unpack ${tarball}: ${untar.stderr}`);
  } else {
    for (const path of ["package.json", ...manifestOf(root).files]) cpSync(join(root, path), join(installed, path), { recursive: true });
  }
  const { version, dependencies, bin } = manifestOf(installed);
  for (const dependency of Object.keys(dependencies)) symlinkSync(join(root, "node_modules", dependency), join(dir, "node_modules", dependency));
  mkdirSync(join(dir, "node_modules", ".bin"));
  for (const [name, path] of Object.entries(bin)) {
    symlinkSync(join("..", "ingestion-api", path), join(dir, "node_modules", ".bin", name));
    chmodSync(join(installed, path), 0o755);
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { "ingestion-api": version } }));
  return { dir, installed, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
