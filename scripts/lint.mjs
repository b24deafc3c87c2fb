// npm run lint: Redocly over the split sources, Spectral (oas + OWASP) over a fresh bundle of each API.
// Fails on any error or warning.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apis, runTool } from "./lib/toolchain.mjs";

let problems = 0;

for (const api of apis) {
  const { stdout, status } = runTool("redocly", ["lint", api, "--format=json"], { capture: true });
  const report = JSON.parse(stdout);
  for (const p of report.problems) {
    const at = p.location[0];
    console.log(`${at.source.ref}:${at.start?.line ?? 0}:${at.start?.col ?? 0} ${p.severity} ${p.ruleId} ${p.message}`);
  }
  problems += report.totals.errors + report.totals.warnings;
  if (status !== 0 && report.totals.errors === 0) problems += 1;
}

// Spectral lints bundles, not the split sources: it wrongly flags external path-item $refs in 3.1
// ("property must not have unevaluated properties", stoplightio/spectral#2655).
const bundles = mkdtempSync(join(tmpdir(), "ingestion-api-lint-"));
try {
  for (const api of apis) {
    const bundle = join(bundles, `${api}.json`);
    const bundled = runTool("redocly", ["bundle", api, "--output", bundle], { capture: true });
    if (bundled.status !== 0) {
      console.log(bundled.stderr);
      problems += 1;
      continue;
    }
    const { stdout, status } = runTool("spectral", ["lint", bundle, "--format", "json", "--fail-severity", "hint", "--quiet"], { capture: true });
    const results = stdout.trim() ? JSON.parse(stdout) : [];
    for (const r of results) {
      console.log(`${api} bundle #/${r.path.join("/")} ${["error", "warning", "info", "hint"][r.severity]} ${r.code} ${r.message}`);
    }
    problems += results.length;
    if (status !== 0 && results.length === 0) problems += 1;
  }
} finally {
  rmSync(bundles, { recursive: true, force: true });
}

if (problems > 0) {
  console.error(`lint: ${problems} problem(s) in ${apis.join(", ")}`);
  process.exit(1);
}
console.log(`lint: ${apis.join(", ")} clean (Redocly recommended, Spectral oas + OWASP)`);
