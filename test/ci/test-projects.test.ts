// The lists of vitest.config.ts name files that exist, and each test lands in the project its needs call for: the
// mocks' URLs are provided to the prism project only, so a test that injects them anywhere else gets undefined.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { fleetTests, parityTests, prismTests, unitTests } from "../../vitest.config.js";

const testFiles = readdirSync(join(root, "test"), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".test.ts"))
  .map((entry) => relative(root, join(entry.parentPath, entry.name)));
const listed = [...unitTests, ...prismTests, ...fleetTests, ...parityTests];

it("lists only test files that exist, each in one project at most", () => {
  expect(listed.filter((file) => !existsSync(join(root, file)))).toEqual([]);
  expect(listed.filter((file, index) => listed.indexOf(file) !== index)).toEqual([]);
});

it("puts every test that reaches the Prism mocks (inject, test/support/prism.ts) in the prism project", () => {
  const usesMocks = testFiles.filter((file) => /\binject\(|support\/prism\.js/.test(readFileSync(join(root, file), "utf8")));
  expect(usesMocks.length).toBeGreaterThan(5);
  expect(usesMocks.filter((file) => !prismTests.includes(file))).toEqual([]);
  expect(prismTests.filter((file) => !usesMocks.includes(file))).toEqual([]);
});
