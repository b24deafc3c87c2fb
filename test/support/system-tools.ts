// The system tools some tests need beyond `npm ci` (redis-server, Go and kin-openapi, python3, the Deno and Bun
// binaries): which one runs here, and what a test does without it: locally it is skipped, saying why in one line;
// in CI (CI=true), where .ci/run installs every one of them, the suite fails instead.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

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

/** Where Debian's golang-github-getkin-kin-openapi-dev puts the library: a GOPATH. */
const debianGopath = "/usr/share/gocode";
/** The environment of a `go run` against Debian's kin-openapi: GOPATH mode, nothing downloaded. */
export const kinOpenapiEnv = { GO111MODULE: "off", GOPATH: debianGopath, GOFLAGS: "" };

/** Go, and Debian's kin-openapi beside it: the go command, and why the checks of `what` are skipped without them. */
export function goWithKinOpenapi(what: string): { go: string | undefined; missing: string | undefined } {
  const go = commandThatRuns(["go", "/usr/bin/go", "/usr/lib/go/bin/go"], ["version"]);
  const missing = !go
    ? `skipping ${what}: no Go toolchain (apt-get install golang-go golang-github-getkin-kin-openapi-dev)`
    : existsSync(`${debianGopath}/src/github.com/getkin/kin-openapi`)
      ? undefined
      : `skipping ${what}: no kin-openapi (apt-get install golang-github-getkin-kin-openapi-dev)`;
  return { go, missing };
}
