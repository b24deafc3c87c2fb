// The package as `npm pack` makes it from a checkout: its `prepack` compiles dist/, and `--json` output stays
// JSON for the tools that read it. Packed from a copy, so this suite's build never races the others' dist/.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { copyProject, type ProjectCopy } from "../support/project-copy.js";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { files: string[] };

let copy: ProjectCopy;
afterAll(() => copy?.remove());

it("npm pack --json prints only JSON, and packs dist/, the bundles and the vectors without sources or tests", () => {
  // What prepack needs to compile, and what `files` ships; dist/ is left out, so prepack must build it.
  const shipped = packageJson.files.filter((path) => path !== "dist");
  copy = copyProject(["package.json", "tsconfig.json", "tsconfig.build.json", "redocly.yaml", "src", "generated", "scripts", ...shipped]);
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, "pack", "--json"]] : ["npm", ["pack", "--json"]];
  const run = spawnSync(command, [...args, "--pack-destination", copy.dir], { cwd: copy.dir, encoding: "utf8", timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);

  const [packed] = JSON.parse(run.stdout) as { files: { path: string }[] }[];
  const paths = packed!.files.map((file) => file.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      "dist/index.js",
      "dist/index.cjs",
      "dist/src/index.d.ts",
      "generated/openapi/management.json",
      "contract/vectors/alerts/createAlert.json",
    ]),
  );
  expect(paths.filter((path) => /^(src|test|scripts|openapi\/(management|alerts))\//.test(path))).toEqual([]);
}, 120_000);
