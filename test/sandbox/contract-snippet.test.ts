// The curls CONTRACT.md gives under "Run a sandbox for your integration tests", run as written against a sandbox
// started with the printed default credentials: the PUT is what the next GET answers, and reset answers 204.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { defaultCredentials } from "../../src/sandbox/credentials.js";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";

const heading = "## Run a sandbox for your integration tests";
const contract = readFileSync(join(root, "CONTRACT.md"), "utf8");
const section = contract.slice(contract.indexOf(heading), contract.indexOf("\n## ", contract.indexOf(heading) + 1));
const curls = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? "").find((block) => block.startsWith("curl"));

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: exampleSeed(), credentials: defaultCredentials });
});
afterAll(async () => {
  await sandbox?.close();
});

it("CONTRACT.md's sandbox curls work as written: the replaced settings are read back", async () => {
  expect(curls, `a sh block of curls under "${heading}"`).toBeDefined();
  // The documented port, replaced by this sandbox's free one. Run asynchronously: the sandbox answers from this process.
  const { stdout } = await promisify(execFile)("sh", ["-ec", (curls ?? "").replaceAll("http://127.0.0.1:4012", sandbox.url)], { timeout: 30_000 });
  // The answer the block's comment shows, with its request id left out.
  const shown = JSON.parse((/^# (\{.*\})$/m.exec(curls ?? "")?.[1] ?? "{}").replace('"..."', '""')) as { result: object };
  expect(stdout.split(JSON.stringify(shown.result)).length - 1, stdout).toBe(2);
});
