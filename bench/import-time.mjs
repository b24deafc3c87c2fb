// Time to `await import()` a module in a fresh Node process, where nothing is cached yet.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Milliseconds taken by `await import(specifier)` in a new process started from the repo root. */
export function importMilliseconds(specifier) {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  return Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }));
}
