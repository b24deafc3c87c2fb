// What a markdown page links to and which anchors its headings make, as GitHub and npm render them: for checking
// that a page's links resolve among the files that ship beside it.

/** The page without its fenced code blocks, whose lines are neither links nor headings. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** Every link target of the page: inline `[text](target)` and images, reference definitions, and HTML `href`/`src`. */
export function linkTargets(markdown: string): string[] {
  // Inline code holds no links either.
  const text = withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, "");
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)].map((match) => match[1] as string);
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1] as string);
  const html = [...text.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/gi)].map((match) => match[1] as string);
  return [...inline, ...references, ...html];
}

/** Whether a target leaves the package: a URL with a scheme (`https:`, `mailto:`) or a protocol-relative one. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");
}

/** The anchors the page's headings make, as GitHub slugs them (lower case, punctuation dropped, spaces to `-`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCodeBlocks(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = (heading as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    // A repeated heading gets -1, -2, ... after its first.
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
