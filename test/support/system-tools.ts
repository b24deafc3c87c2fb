// The system tools some tests need beyond `npm ci` (redis-server, Go and kin-openapi, python3, the Deno and Bun
// binaries): which one runs here, and what a test does without it: locally it is skipped, saying why in one line;
// in CI (CI=true), where .ci/run installs every one of them, the suite fails instead.
import { spawnSync } from "node:child_process";

/** The first of `candidates` (names on PATH or paths) that runs `args` successfully, or undefined. */
export function commandThatRuns(candidates: string[], args: string[]): string | undefined {
  return candidates.find((candidate) => spawnSync(candidate, args).status === 0);
}

/**
 * For a tool a test file needs: `missing` says why the tests that use it are skipped (`skipping ...: no ...
 * (apt-get install ...)`), undefined when nothing is missing. Throws under CI=true; else warns once, for the caller
 * to skip.
 */
export function skipOrFailInCi(missing: string | undefined): void {
  if (missing === undefined) return;
  const reason = `${missing}; CI fails instead`;
  if (process.env.CI === "true") throw new Error(`${reason}, and CI=true`);
  console.warn(reason);
}
