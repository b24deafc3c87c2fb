// build/docs/downloads/: the contract for a team without Node, wherever the docs are hosted. The release archive
// and the Python wheel, each beside its .sha256 (the line `sha256sum -c` reads). The archive holds the pages of
// `docsDir` (not the downloads: it would hold itself), so they are written last.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contractArchive, sha256 } from "./contract-archive.mjs";
import { contractWheel } from "./wheel.mjs";

/** Writes `<docsDir>/downloads/`; the files written, with their sizes. */
export function writeDownloads(docsDir, { version }) {
  const folder = join(docsDir, "downloads");
  mkdirSync(folder, { recursive: true });
  const written = [];
  for (const { name, data } of [contractArchive({ docsDir, version }), contractWheel({ version })]) {
    writeFileSync(join(folder, name), data);
    writeFileSync(join(folder, `${name}.sha256`), `${sha256(data)}  ${name}\n`);
    written.push({ name, size: data.length });
  }
  return written;
}
