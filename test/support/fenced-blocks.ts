// The fenced code blocks of a Markdown file, as a reader meets them: each with its language, the marks after it in
// the info string (```sh needs-redis), where it starts, and, for a TypeScript block without an import, the blocks it
// continues; and one such block imported as a module, to run exactly what a reader copies.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { root } from "../../scripts/lib/toolchain.mjs";

export interface FencedBlock {
  file: string;
  /** The line of its opening fence, 1-based. */
  line: number;
  language: string;
  marks: string[];
  code: string;
  /** The Markdown after the block, to its next heading or block: where the text says what it prints. */
  after: string;
  /** `file:line`, how a test names it. */
  name: string;
}

export function fencedBlocks(file: string): FencedBlock[] {
  const text = readFileSync(join(root, file), "utf8");
  const blocks: FencedBlock[] = [];
  for (const match of text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)) {
    const [language = "", ...marks] = (match[1] ?? "").trim().split(/\s+/);
    const line = text.slice(0, match.index).split("\n").length;
    const rest = text.slice((match.index ?? 0) + match[0].length);
    const next = rest.search(/^(```|#)/m);
    const after = next === -1 ? rest : rest.slice(0, next);
    blocks.push({ file, line, language, marks, code: match[2] ?? "", after, name: `${file}:${line}` });
  }
  return blocks;
}

/** A TypeScript block with an import is whole: a reader pastes it alone. */
export const isWhole = (block: FencedBlock) => /^import /m.test(block.code);

/**
 * Each TypeScript block of `blocks` as the module it is checked as: a whole block alone; any other after the last
 * whole block of its file and the ones between, as a reader who pasted those would run it.
 */
export function typeScriptModules(blocks: FencedBlock[]): { block: FencedBlock; source: string }[] {
  const modules: { block: FencedBlock; source: string }[] = [];
  let chain: FencedBlock[] = [];
  for (const block of blocks.filter(({ language }) => language === "ts")) {
    if (isWhole(block) || chain[0]?.file !== block.file) chain = [];
    chain.push(block);
    modules.push({ block, source: chain.map(({ code }) => code).join("\n") });
  }
  return modules;
}

/**
 * What the text after a block says it prints: the phrases of "It prints `a`, `b` and `c`" (the list only), as patterns
 * in which any run of spaces matches any other and a capital N stands for a number.
 */
export function promisedOutput(block: FencedBlock): RegExp[] {
  const list = /It\s+prints\s+(`[^`]+`(?:(?:,|\s+and|,\s+and)\s+`[^`]+`)*)/.exec(block.after)?.[1] ?? "";
  return [...list.matchAll(/`([^`]+)`/g)].map(
    ([, phrase]) =>
      new RegExp(
        (phrase ?? "")
          .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
          .replace(/\s+/g, "\\s+")
          .replace(/\bN\b/g, "\\d+"),
      ),
  );
}

/**
 * The TypeScript block of `file` that defines the function `name`, written under build/ and imported (`ingestion-api`
 * resolves to the sources, as in every test).
 */
export async function importedBlock(file: string, name: string): Promise<Record<string, unknown>> {
  const block = fencedBlocks(file).find(({ language, code }) => language === "ts" && code.includes(`function ${name}(`));
  if (!block) throw new Error(`${file} has no TypeScript block that defines ${name}`);
  const directory = join(root, "build", "markdown-blocks");
  mkdirSync(directory, { recursive: true });
  const module = join(directory, `${basename(file, ".md")}-${name}.ts`);
  writeFileSync(module, block.code);
  return import(module);
}
