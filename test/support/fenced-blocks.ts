// The fenced code blocks of a Markdown file, as a reader meets them: each with its language, the marks after it in
// the info string (```sh needs-redis), where it starts, and, for a TypeScript block without an import, the blocks it
// continues.
import { readFileSync } from "node:fs";
import { join } from "node:path";
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
    const after = rest.slice(0, rest.search(/^(```|#)/m) === -1 ? undefined : rest.search(/^(```|#)/m));
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
