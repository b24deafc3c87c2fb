// Load: 2,000 calls in flight all succeed, 5,000 sequential calls keep the heap flat, and the client's
// process exits on its own (no socket or timer left behind). The client runs in a child process.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { operation } from "../support/operations.js";
import { spawnAndCollect } from "../support/processes.js";
import { json, type ScriptedServer, startScriptedServer } from "../support/scripted-server.js";
import { pipe, settingsEnvelope } from "../support/sdk-fixtures.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer(json(200, settingsEnvelope));
});
afterAll(() => server.close());

it("2,000 calls in flight succeed, 5,000 sequential calls grow the heap by less than 20 MB, and the process exits by itself", async () => {
  expect(existsSync(`${root}/dist/index.js`), "run `npm run build` first: the probe loads the built package").toBe(true);
  const settings = JSON.stringify(operation("updatePipeSettings").example.body);
  // Exiting on its own is part of the verdict: a leftover socket or timer would keep it alive.
  const { status, signal, stdout } = await spawnAndCollect(
    process.execPath,
    ["--expose-gc", "test/hardening/load-probe.mjs", server.url, JSON.stringify(pipe), settings],
    { cwd: root, stderr: "inherit", timeout: 90_000, killSignal: "SIGKILL" },
  );
  expect({ status, signal }).toEqual({ status: 0, signal: null });

  const report = JSON.parse(stdout);
  expect(report.failures).toEqual([]);
  expect(report.inFlight).toBe(2_000);
  expect(report.heapGrowthBytes).toBeLessThan(20 * 1024 * 1024);
  expect(report.timers).toEqual([]);
  expect(server.requests.length).toBe(2_000 + 500 + 5_000);
  console.log(`load: 2,000 in flight ok; heap growth over 5,000 sequential calls ${(report.heapGrowthBytes / 1024 / 1024).toFixed(2)} MB`);
}, 120_000);
