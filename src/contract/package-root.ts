// Where the package's own files are, for the command's parts that read them (the vectors, the rendered docs of a
// checkout): the installed package, or the checkout it runs from.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The nearest folder above this module whose package.json is ours; `command` names the caller in the error. */
export function packageRoot(command: string): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      if (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name === "ingestion-api") return dir;
    } catch {
      // No package.json here, or not JSON: keep looking above.
    }
    if (dirname(dir) === dir) throw new Error(`${command}: cannot find the package's own files above ${fileURLToPath(import.meta.url)}`);
  }
}
