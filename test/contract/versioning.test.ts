// The package and both specs carry one version, the change log has it, and release:spec records only what that allows.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundles } from "../support/bundles.js";
import { copyProject, type ProjectCopy, repoRoot } from "../support/project-copy.js";

const read = (file: string, dir = repoRoot) => readFileSync(join(dir, file), "utf8");
const { version } = JSON.parse(read("package.json")) as { version: string };
const [major, minor] = version.split(".").map(Number) as [number, number];
const nextVersion = `${major}.${minor + 1}.0`;

it.each(["management", "alerts"] as const)("the %s spec's info.version is the package version, in its source and its bundle", (api) => {
  expect(parse(read(`openapi/${api}/openapi.yaml`)).info.version).toBe(version);
  expect(bundles[api].info.version).toBe(version);
});

it("CHANGELOG.md has a dated section for the package version", () => {
  expect(read("CHANGELOG.md").split("\n")).toContainEqual(
    expect.stringMatching(new RegExp(`^## \\[${version.replaceAll(".", "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`)),
  );
});

describe("npm run release:spec", () => {
  let project: ProjectCopy;
  afterEach(() => project.remove());

  /** Runs release:spec in a copy of the project with the given package version and bundle edits. */
  function release(packageVersion: string, editBundle: (bundle: any) => void): { status: number | null; output: string } {
    project = copyProject(["scripts/release-spec.mjs", "scripts/lib", "redocly.yaml", "package.json", "openapi/released", "generated/openapi"]);
    const pkg = JSON.parse(read("package.json", project.dir));
    writeFileSync(join(project.dir, "package.json"), JSON.stringify({ ...pkg, version: packageVersion }));
    for (const api of ["management", "alerts"]) {
      const bundle = JSON.parse(read(`generated/openapi/${api}.json`, project.dir));
      editBundle(bundle);
      writeFileSync(join(project.dir, `generated/openapi/${api}.json`), JSON.stringify(bundle));
    }
    const run = spawnSync(process.execPath, [join(project.dir, "scripts/release-spec.mjs")], { encoding: "utf8" });
    return { status: run.status, output: run.stdout + run.stderr };
  }
  const released = (api: string) => read(`openapi/released/${api}.json`, project.dir);

  it("refuses when package.json and the specs' info.version differ, and records nothing", () => {
    const { status, output } = release(nextVersion, () => {});
    expect(status).toBe(1);
    expect(output).toContain(`management has info.version ${version}, package.json ${nextVersion}`);
    expect(released("management")).toBe(read("openapi/released/management.json"));
  });

  it("refuses to record other content under a version already released", () => {
    const { status, output } = release(version, (bundle) => (bundle.info.description = "Changed."));
    expect(status).toBe(1);
    expect(output).toContain(`already released with other content; bump the version`);
  });

  it("records both bundles when the versions agree", () => {
    const { status, output } = release(nextVersion, (bundle) => (bundle.info.version = nextVersion));
    expect(status, output).toBe(0);
    expect(output).toContain(`release:spec: recorded management.json, alerts.json at ${nextVersion} under openapi/released/`);
    expect(JSON.parse(released("alerts")).info.version).toBe(nextVersion);
    expect(released("alerts")).toBe(read("generated/openapi/alerts.json", project.dir));
  });
});
