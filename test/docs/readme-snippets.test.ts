// The README's TypeScript snippets compile against the SDK as they are printed, in order, as one module (later
// snippets use the clients the first one made): an option renamed or a method's signature changed fails here.
// Only the values a reader fills in themselves are declared. The sandbox snippet also runs, as a reader's test would.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import * as sdk from "../../src/index.js";
import * as sandboxEntry from "../../src/sandbox/in-process.js";
import { organizationId, pipeId, serviceId } from "../support/sdk-fixtures.js";

const snippets = [...readFileSync(join(root, "README.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
const readerValues =
  "declare const serviceId: string;\ndeclare const pipeId: string;\ndeclare const organizationId: string;\ndeclare const metrics: { count(...values: unknown[]): void };\n";

it("stays under 15 kB, so a newcomer reads how to call the API rather than a diary (issue 21)", () => {
  expect(readFileSync(join(root, "README.md")).length).toBeLessThan(15_000);
});

it("has TypeScript snippets, the first of which makes both clients", () => {
  expect(snippets.length).toBeGreaterThanOrEqual(4);
  expect(snippets[0]).toMatch(/createManagementClient\(/);
  expect(snippets[0]).toMatch(/createAlertsClient\(/);
});

/** The type errors of a virtual module made of `snippets` in order (later ones repeat the first one's imports). */
function typeErrorsOf(snippets: string[], name: string): string[] {
  const file = join(root, "test", "docs", name);
  // Later snippets repeat the imports of the first: a module may import a name once.
  const seen = new Set<string>();
  const firstTime = (line: string) => {
    if (seen.has(line)) return "";
    seen.add(line);
    return line;
  };
  const body = snippets.map((snippet) => snippet.replace(/^import .*\n/gm, firstTime)).join("\n");
  const source = `${readerValues}${body}\nexport {};\n`;
  const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const host = ts.createCompilerHost(config?.options ?? {});
  const readFile = host.readFile;
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists(name)
  )(host.fileExists);
  const program = ts.createProgram({ rootNames: [file], options: { ...config?.options, noEmit: true }, host });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === file)
    .map((diagnostic) => {
      const { line } = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0) ?? { line: 0 };
      return `${source.split("\n")[line]?.trim()}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`;
    });
}

it("type-checks every snippet against the SDK", () => {
  expect(typeErrorsOf(snippets, "readme-snippets.virtual.ts")).toEqual([]);
}, 60_000);

it("RATE-LIMITS.md, which the README links for the detail, type-checks and names only tests that exist", () => {
  const text = readFileSync(join(root, "RATE-LIMITS.md"), "utf8");
  const own = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  expect(own.length).toBeGreaterThan(0);
  expect(typeErrorsOf(own, "rate-limits-snippets.virtual.ts")).toEqual([]);
  const named = [...text.matchAll(/`(test\/[\w/.-]+\.test\.ts)`/g)].map((match) => match[1] as string);
  expect(named.length).toBeGreaterThan(3);
  expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
}, 60_000);

it("runs the sandbox snippet as printed: the fault it adds reaches the caller, not a retry that absorbs it (issue 30)", async () => {
  const snippet = snippets.find((text) => text.includes("createSandbox("));
  expect(snippet).toBeDefined();
  // Its imports, and the first snippet's createManagementClient, are the SDK's and the sandbox's exports and vitest's
  // expect; the ids a reader fills in are the specs' own, which the sandbox starts with.
  const names: Record<string, unknown> = { ...sdk, ...sandboxEntry, expect, organizationId, serviceId, pipeId };
  const body = ts.transpileModule(snippet?.replace(/^import .*\n/gm, "") ?? "", { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
  const AsyncFunction = (async () => {}).constructor as new (...parameters: string[]) => (...values: unknown[]) => Promise<void>;
  await new AsyncFunction(...Object.keys(names), body)(...Object.values(names));
});
