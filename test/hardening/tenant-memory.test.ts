// A multi-tenant server can run the SDK for ever: 20,000 credentials used once and then idle leave the heap where
// it began. The client runs in a child process with --expose-gc, from the built package.
import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { spawnAndCollect } from "../support/processes.js";
import { alertEnvelope, alertId } from "../support/sdk-fixtures.js";

it("20,000 credentials used once, then idle past their windows, give their memory back: the heap within 4 MB of where it began", async () => {
  expect(existsSync(`${root}/dist/index.js`), "run `npm run build` first: the probe loads the built package").toBe(true);
  const { status, signal, stdout } = await spawnAndCollect(
    process.execPath,
    ["--expose-gc", "test/hardening/tenant-memory-probe.mjs", "20000", alertId, JSON.stringify(alertEnvelope)],
    { cwd: root, stderr: "inherit", timeout: 60_000, killSignal: "SIGKILL" },
  );
  expect({ status, signal }).toEqual({ status: 0, signal: null });
  const { before, used, after } = JSON.parse(stdout);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log(`tenant memory: ${mb(before)} before, ${mb(used)} with 20,000 credentials used, ${mb(after)} once idle`);
  // Before issue 39 the same probe ended at 25.1 MB from 5.5 MB: every credential kept its queue, its send log and
  // its key. (How much is held while in use varies: the store already drops the credentials idle for a second, and
  // GC the queues of dropped clients, as the run goes.)
  expect(after - before).toBeLessThan(4 * 1024 * 1024);
}, 90_000);
