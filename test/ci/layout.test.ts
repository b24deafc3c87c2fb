// The folders say what ships: src/ (the package) imports nothing from the folders that build or test it, so the
// data flows one way, spec -> bundle -> generated -> src -> tests, and what is shipped never needs scripts/. Inside
// src/, one folder per product, and each imports only what is below it: the client none of the others, the sandbox,
// verify and the docs server not the command line, which is the top floor and imported by nobody.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";

const src = join(root, "src");
const sources = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(ts|js|mjs)$/.test(entry.name))
  .map((entry) => relative(root, join(entry.parentPath, entry.name)));

/** Every relative module a file imports (static, dynamic or re-exported), as a path from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)].map((match) => match[1] as string);
  return specifiers.map((specifier) => relative(root, resolve(root, file, "..", specifier)));
}

/** The place of a file or an import target: its folder under src/ (`client`, `sandbox`, ...), `root` for an entry at
 * src/'s root, or the top-level folder of the repository outside src/ (`generated`, `scripts`, ...). */
function placeOf(path: string): string {
  const [top, second, third] = path.split("/");
  if (top !== "src") return top as string;
  return third === undefined ? "root" : (second as string);
}

/** What each place under src/ may import, besides itself. */
const mayImport: Record<string, readonly string[]> = {
  root: ["client", "shared-store"],
  client: ["contract", "generated"],
  "shared-store": ["client"],
  contract: ["generated"],
  "local-servers": [],
  sandbox: ["client", "contract", "local-servers", "generated"],
  verify: ["client", "contract", "generated"],
  traffic: ["client", "contract", "verify", "generated"],
  docs: ["contract", "local-servers"],
  samples: ["contract", "sandbox"],
  playground: ["client", "contract", "sandbox", "samples", "generated"],
  cli: ["client", "contract", "sandbox", "verify", "traffic", "docs", "generated"],
};

it("finds the sources it checks, each in a place the table knows", () => {
  expect(sources.length).toBeGreaterThan(40);
  expect(sources.map(placeOf).filter((place) => !(place in mayImport))).toEqual([]);
});

/**
 * The package's entries, as package.json's exports name them: the sources of their declarations
 * (`./dist/src/index.d.ts` is src/index.ts).
 */
const exportedEntries: string[] = Object.values(
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports as Record<string, { import?: { types?: string } }>,
)
  .flatMap((entry) => entry.import?.types ?? [])
  .filter((types) => types.startsWith("./dist/src/"))
  .map((types) => types.replace("./dist/", "").replace(/\.d\.ts$/, ".ts"));

it("keeps at the root of src/ only the package's entries that package.json exports", () => {
  expect(exportedEntries.length).toBeGreaterThan(0);
  expect(sources.filter((file) => placeOf(file) === "root").sort()).toEqual(exportedEntries.filter((file) => placeOf(file) === "root").sort());
});

// Folders, not files: a split or a rename inside a place changes nothing here; a place emptied or left unknown does.
it("has sources in every place the table names", () => {
  expect(Object.keys(mayImport).filter((place) => !sources.some((file) => placeOf(file) === place))).toEqual([]);
});

describe.each(Object.entries(mayImport))("src/%s", (place, allowed) => {
  it(`imports only ${[place, ...allowed].join(", ")}`, () => {
    const offending = sources
      .filter((file) => placeOf(file) === place)
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => placeOf(target) !== place && !allowed.includes(placeOf(target)))
          .map((target) => `${file} -> ${target}`),
      );
    expect(offending).toEqual([]);
  });
});

it("keeps src/samples/ to relative imports, no Node module or package: the playground runs it in a browser", () => {
  const bare = sources
    .filter((file) => placeOf(file) === "samples")
    .flatMap((file) =>
      // Statements only, at the start of a line: the generators' templates hold import lines of their own.
      [...readFileSync(join(root, file), "utf8").matchAll(/^(?:import\s*|(?:import|export)\b[^;]*?\bfrom\s*)["']([^"']+)["'](?: with \{[^}]*\})?;$/gm)]
        .map((match) => match[1] as string)
        .filter((specifier) => !specifier.startsWith("."))
        .map((specifier) => `${file} -> ${specifier}`),
    );
  expect(sources.filter((file) => placeOf(file) === "samples").length).toBeGreaterThan(0);
  expect(bare).toEqual([]);
});

it.each(["scripts", "test", "bench", "examples"])("nothing under src/ imports %s/", (folder) => {
  const offending = sources.flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith(`${folder}/`))
      .map((target) => `${file} -> ${target}`),
  );
  expect(offending).toEqual([]);
});

it("lets scripts/ reach the servers' shared guard without going through the command line", () => {
  const scripts = readdirSync(join(root, "scripts"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".mjs"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
  const throughTheCommandLine = scripts.flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith("src/cli/"))
      .map((target) => `${file} -> ${target}`),
  );
  expect(throughTheCommandLine).toEqual([]);
});
