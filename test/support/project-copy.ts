// A throwaway copy of some of the project's files, for running a script on bundles the test has changed.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface ProjectCopy {
  dir: string;
  remove(): void;
}

/** Copies `paths` (files or folders, relative to the repo) into a temp dir that shares the repo's node_modules. */
export function copyProject(paths: string[]): ProjectCopy {
  const dir = mkdtempSync(join(tmpdir(), "ingestion-api-copy-"));
  for (const path of paths) cpSync(join(repoRoot, path), join(dir, path), { recursive: true });
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
