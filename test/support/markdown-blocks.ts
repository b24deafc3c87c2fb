// A TypeScript block of a shipped Markdown file, run as a module: the block that defines `name`, written under
// build/ and imported, so a test runs exactly what a reader copies (`ingestion-api` resolves to the sources, as in
// every test).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { root } from "../../scripts/lib/toolchain.mjs";

export async function importedBlock(file: string, name: string): Promise<Record<string, unknown>> {
  const markdown = readFileSync(join(root, file), "utf8");
  const block = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map(([, code]) => code as string).find((code) => code.includes(`function ${name}(`));
  if (!block) throw new Error(`${file} has no TypeScript block that defines ${name}`);
  const directory = join(root, "build", "markdown-blocks");
  mkdirSync(directory, { recursive: true });
  const module = join(directory, `${basename(file, ".md")}-${name}.ts`);
  writeFileSync(module, block);
  return import(module);
}
