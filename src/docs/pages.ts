// Where `npx ingestion-api docs` finds the rendered references. They are 8 MB (two Redoc pages of 2.6 MB, each
// carrying Redoc's 2.3 MB script, and 1.9 MB of downloads), too much to add to a package that serverless functions
// install, so they ship as the companion package `ingestion-api-docs` of the same version, found in this order:
//   1. --dir, a folder the caller names;
//   2. build/docs of the checkout this command runs from (after `npm run build`);
//   3. `ingestion-api-docs` installed beside this package, at this version;
//   4. a copy fetched before, in the user's cache;
//   5. fetched now from the npm registry npm is set up for (`npm pack ingestion-api-docs@<version>`), into the cache.
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { packageRoot } from "../contract/package-root.js";

export const docsPackage = "ingestion-api-docs";

/** The pages are nowhere to be had: the message says why and what to do, in one line, for the command to print. */
export class PagesUnavailableError extends Error {
  override name = "PagesUnavailableError";
}

/** Where the pages were found, for the command to say. */
export interface FoundPages {
  dir: string;
  from: string;
}

const hasPages = (dir: string) => existsSync(join(dir, "index.html")) && existsSync(join(dir, "management.html")) && existsSync(join(dir, "alerts.html"));

/** The folder of the pages of `version`, fetching them when nowhere else has them; `log` tells what it does. */
export function findPages(version: string, { dir, log }: { dir?: string | undefined; log: (line: string) => void }): FoundPages {
  if (dir !== undefined) {
    if (!hasPages(dir)) throw new PagesUnavailableError(`--dir ${dir} has no index.html, management.html and alerts.html`);
    return { dir, from: dir };
  }
  const root = packageRoot("ingestion-api docs");
  const checkout = join(root, "build", "docs");
  if (hasPages(checkout)) return { dir: checkout, from: "this checkout's build/docs" };
  const installed = installedPages(root, version);
  if (installed) return installed;
  const cached = join(cacheFolder(), `docs-${version}`);
  if (hasPages(cached)) return { dir: cached, from: `the cache, ${cached}` };
  log(`${docsPackage}@${version} is not installed: fetching it from the npm registry into ${cached}`);
  fetchInto(version, cached);
  return { dir: cached, from: `${docsPackage}@${version}, fetched into ${cached}` };
}

/** The pages of an `ingestion-api-docs` installed where the package at `root` would find it, at this version. */
function installedPages(root: string, version: string): FoundPages | undefined {
  let manifest: string;
  try {
    manifest = createRequire(join(root, "package.json")).resolve(`${docsPackage}/package.json`);
  } catch {
    return undefined;
  }
  const found = JSON.parse(readFileSync(manifest, "utf8")).version;
  const dir = join(dirname(manifest), "docs");
  // Another version's pages describe another contract.
  if (found !== version || !hasPages(dir)) return undefined;
  return { dir, from: `${docsPackage}@${found}, installed` };
}

/** This user's cache folder for the package (XDG on Linux and macOS, LOCALAPPDATA on Windows). */
function cacheFolder(): string {
  const base = process.env.XDG_CACHE_HOME || (process.platform === "win32" ? process.env.LOCALAPPDATA : undefined) || join(homedir(), ".cache");
  return join(base, "ingestion-api");
}

/** `npm pack`s the companion package from the registry and unpacks its pages into `target`, whole or not at all. */
function fetchInto(version: string, target: string): void {
  // Beside the target, so the last step is a rename on one file system.
  mkdirSync(dirname(target), { recursive: true });
  const work = mkdtempSync(join(dirname(target), ".fetching-"));
  try {
    // npm, not a request of ours: it uses the registry, proxy, certificates and credentials the user set up.
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const packed = spawnSync(npm, ["pack", `${docsPackage}@${version}`, "--pack-destination", work, "--json", "--silent"], {
      encoding: "utf8",
      shell: process.platform === "win32",
      timeout: 120_000,
    });
    if (packed.status !== 0) {
      throw new PagesUnavailableError(
        `could not fetch ${docsPackage}@${version} with npm: ${npmFailure(packed)}. Install it (npm install -D ${docsPackage}@${version}), or pass --dir with a folder of the pages`,
      );
    }
    const tarball = join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename ?? "");
    const unpacked = join(work, "unpacked");
    mkdirSync(unpacked);
    const untar = spawnSync("tar", ["-xzf", tarball, "-C", unpacked], { encoding: "utf8" });
    if (untar.status !== 0) throw new PagesUnavailableError(`could not unpack ${tarball}: ${untar.error?.message ?? untar.stderr.trim()}`);
    const pages = join(unpacked, "package", "docs");
    if (!hasPages(pages)) throw new PagesUnavailableError(`${docsPackage}@${version} has no docs/index.html, management.html and alerts.html`);
    // Renamed into place, so a second command started meanwhile never serves half a copy.
    rmSync(target, { recursive: true, force: true });
    renameSync(pages, target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Network errors that mean the registry was not reached at all. */
const unreachable = new Set(["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH", "EHOSTUNREACH"]);

/** Why `npm pack --json` failed, in a few words: its JSON error's code (stdout, since --silent mutes stderr), else what it printed. */
function npmFailure(packed: SpawnSyncReturns<string>): string {
  if ((packed.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT") return "no answer in 2 minutes: offline, or the registry cannot be reached";
  if (packed.error) return `npm did not run (${packed.error.message})`;
  let error: { code?: string; summary?: string } = {};
  try {
    error = (JSON.parse(packed.stdout) as { error?: typeof error }).error ?? {};
  } catch {
    // Not JSON: an older npm, or one that died before printing; its own words below.
  }
  // E404: no such package; ETARGET: not at this version.
  if (error.code === "E404" || error.code === "ETARGET") return `not found in the registry (${error.code})`;
  if (error.code && unreachable.has(error.code)) return `offline, or the registry cannot be reached (${error.code})`;
  const said = error.summary ?? (packed.stderr.trim() || packed.stdout.trim());
  return said.split("\n")[0]?.trim() || `it exited with ${packed.status ?? packed.signal}`;
}
