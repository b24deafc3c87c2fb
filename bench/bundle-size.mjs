// The client's sizes as size-limit measures them against the budgets in package.json ("size-limit"): the entry,
// with the request validators both clients load, and with the response validators too.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** size-limit's checks: { name, size (bytes), sizeLimit (bytes), passed }. */
export function bundleSizes() {
  const run = () => execFileSync(process.execPath, ["node_modules/size-limit/bin.js", "--json"], { cwd: root, encoding: "utf8" });
  let output;
  try {
    output = run();
  } catch (error) {
    // size-limit exits 1 when over budget and still prints its JSON: that is a result, not a failure.
    if (!error.stdout) throw error;
    output = error.stdout;
  }
  return JSON.parse(output);
}
