// The release archive of `npm run release:contract`: two builds give the same bytes, its entries carry no trace of
// the machine (owner, date, order), it holds every file the contract promises, its SHA256SUMS passes
// `sha256sum -c`, and check_vectors.py reaches every vector's verdict from the unpacked folder alone.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apis, root } from "../../scripts/lib/toolchain.mjs";
import { python3, pythonMissing, skipPython } from "../support/python.js";

const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
const top = `ingestion-api-contract-${version}`;
const work = mkdtempSync(join(tmpdir(), "ingestion-api-release-"));
const unpacked = join(work, "unpacked");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Runs the release script into `out` and returns the archive it wrote. */
function release(out: string): Buffer {
  const run = spawnSync(process.execPath, ["scripts/release-contract.mjs", "--out", out], { cwd: root, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain(`wrote ${join(out, `${top}.tar.gz`)}: `);
  return readFileSync(join(out, `${top}.tar.gz`));
}

function tar(args: string[]) {
  const run = spawnSync("tar", args, { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return run;
}

const archive = join(work, "first", `${top}.tar.gz`);
let first: Buffer;
let second: Buffer;
let listed: string[];
beforeAll(() => {
  first = release(join(work, "first"));
  second = release(join(work, "second"));
  listed = tar(["-tzf", archive]).stdout.trim().split("\n");
  mkdirSync(unpacked);
  // Without a warning: a wrong checksum or field in a header would raise one.
  expect(tar(["-xzf", archive, "-C", unpacked]).stderr).toBe("");
}, 60_000);

it("gives the same bytes when built twice", () => {
  expect(second.length).toBe(first.length);
  expect(sha256(second)).toBe(sha256(first));
});

it("lists, in path order, the bundles, schemas, vectors, check_vectors.py, CONTRACT.md, DECISIONS.md, the docs, a README and SHA256SUMS", () => {
  const jsonFilesIn = (folder: string) =>
    readdirSync(join(root, folder))
      .filter((name) => name.endsWith(".json"))
      .map((name) => `${folder}/${name}`);
  const expected = [
    ...apis
      .flatMap((api) => ["", ".openapi-3.0", ".dereferenced"].flatMap((variant) => [`${api}${variant}.json`, `${api}${variant}.yaml`]))
      .map((name) => `generated/openapi/${name}`),
    ...apis.flatMap((api) => [...jsonFilesIn(`contract/schemas/${api}`), ...jsonFilesIn(`contract/vectors/${api}`)]),
    "contract/check_vectors.py",
    "CONTRACT.md",
    "openapi/DECISIONS.md",
    ...["index", ...apis].map((page) => `docs/${page}.html`),
    ...apis.flatMap((api) => [`docs/openapi/${api}.json`, `docs/openapi/${api}.yaml`]),
    "README.md",
    "SHA256SUMS",
  ].map((path) => `${top}/${path}`);
  expect([...listed].sort()).toEqual(expected.sort());
  expect(listed).toEqual([...listed].sort());
});

it("records every file as owned by 0/0, dated 1970-01-01, 0644 (check_vectors.py 0755), so nothing of the machine gets in", () => {
  const verbose = tar(["--numeric-owner", "--utc", "-tvzf", archive]).stdout.trim().split("\n");
  // "-rw-r--r-- 0/0   28139 1970-01-01 00:00 <path>", less the size
  const entries = verbose.map((line) => line.replace(/^(\S+ \S+) +\d+ /, "$1 "));
  expect(entries.filter((line) => !line.startsWith("-rw-r--r-- 0/0 1970-01-01 00:00 "))).toEqual([
    `-rwxr-xr-x 0/0 1970-01-01 00:00 ${top}/contract/check_vectors.py`,
  ]);
});

it("has a SHA256SUMS that `sha256sum -c` accepts, covering every other file", () => {
  const run = spawnSync("sha256sum", ["--check", "--strict", "SHA256SUMS"], { cwd: join(unpacked, top), encoding: "utf8" });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stdout.trim().split("\n").length).toBe(listed.length - 1);
});

it("has a README that says how to check the archive against its .sha256 and what each folder holds", () => {
  const readme = readFileSync(join(unpacked, top, "README.md"), "utf8");
  expect(readme).toContain(`sha256sum -c ingestion-api-contract-${version}.tar.gz.sha256`);
  for (const folder of ["generated/openapi/", "contract/schemas/", "contract/vectors/", "contract/check_vectors.py", "docs/"])
    expect(readme).toContain(`\`${folder}`);
  expect(readme).toContain("python3 -m ingestion_api_contract check-traffic");
});

it("is the archive the docs publish in downloads/, beside its checksum", () => {
  const published = join(root, "build", "docs", "downloads", `${top}.tar.gz`);
  expect(sha256(readFileSync(published))).toBe(sha256(first));
  expect(readFileSync(`${published}.sha256`, "utf8")).toBe(`${sha256(first)}  ${top}.tar.gz\n`);
});

it.skipIf(skipPython)("runs check_vectors.py unpacked, away from the checkout: every vector gets its verdict", () => {
  expect(python3, pythonMissing).toBeDefined();
  const vectorFiles = apis.flatMap((api) =>
    readdirSync(join(unpacked, top, "contract", "vectors", api)).map((file) => join(unpacked, top, "contract", "vectors", api, file)),
  );
  const vectors = vectorFiles.reduce((count, file) => count + (JSON.parse(readFileSync(file, "utf8")) as unknown[]).length, 0);
  const run = spawnSync(python3!, ["contract/check_vectors.py"], { cwd: join(unpacked, top), encoding: "utf8" });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain(`check_vectors: all ${vectors} vectors got their verdict`);
});
