// The contract kit as another language team meets it: the snippet CONTRACT.md gives, run as it is written.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { python3, pythonMissing, skipPython } from "../support/python.js";

/** The first code block of a language under a heading of CONTRACT.md. */
function snippet(heading: string, language: string): string {
  const contract = readFileSync(join(root, "CONTRACT.md"), "utf8");
  const section = contract.slice(contract.indexOf(`## ${heading}`));
  const match = section.match(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``));
  if (!match?.[1]) throw new Error(`CONTRACT.md has no ${language} block under "${heading}"`);
  return match[1];
}

// A team's project with the package installed: node_modules/ingestion-api is this checkout.
const project = mkdtempSync(join(tmpdir(), "ingestion-api-python-team-"));
mkdirSync(join(project, "node_modules"));
symlinkSync(root, join(project, "node_modules", "ingestion-api"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

it.skipIf(skipPython)("the Python snippet of CONTRACT.md validates a settings body with nothing but jsonschema, as written", () => {
  expect(python3, pythonMissing).toBeDefined();
  const run = spawnSync(python3!, ["-c", snippet("Python in an afternoon", "python")], { cwd: project, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toBe("streaming_max_insert_wait_ms 70000 is greater than the maximum of 60000\n");
});

it.skipIf(skipPython)("CONTRACT.md's remedy for the models' null trap refuses the two vectors a generated model accepts, as written", () => {
  expect(python3, pythonMissing).toBeDefined();
  const run = spawnSync(python3!, ["-c", snippet("The models' null trap", "python")], { cwd: project, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toBe("logStream.brokers null refused at result/source/logStream\nrelationalDb.port null refused at result/source/relationalDb\n");
});
