// The folders say what ships: src/ (the package) imports nothing from the folders that build or test it, so the
// data flows one way, spec -> bundle -> generated -> src -> tests, and what is shipped never needs scripts/.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";

const src = join(root, "src");
const sources = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(ts|js|mjs)$/.test(entry.name))
  .map((entry) => join(entry.parentPath, entry.name));

/** Every relative module a file imports (static, dynamic or re-exported), as a path from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)].map((match) => match[1] as string);
  return specifiers.map((specifier) => relative(root, resolve(file, "..", specifier)));
}

it("finds the sources it checks", () => {
  expect(sources.length).toBeGreaterThan(20);
});

it.each(["scripts", "test", "bench", "examples"])("nothing under src/ imports %s/", (folder) => {
  const offending = sources.flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith(`${folder}/`))
      .map((target) => `${relative(root, file)} -> ${target}`),
  );
  expect(offending).toEqual([]);
});
