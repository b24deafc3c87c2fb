// `npm start` as a newcomer uses it: three URLs and two curls printed, a clear error on a busy port,
// and Ctrl-C leaves nothing running.
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { expect, it } from "vitest";
import { freePort } from "../../scripts/mock-servers.mjs";
import { prismOnPorts, root, startDocs, stopDocs } from "../support/start-process.js";

it("prints the docs and mock URLs and a curl for each mock that works as pasted; Ctrl-C stops everything", async () => {
  const docs = await startDocs();
  const { ports } = docs;
  try {
    const output = docs.output();
    for (const url of [`http://127.0.0.1:${ports.docs}/`, `http://127.0.0.1:${ports.management}`, `http://127.0.0.1:${ports.alerts}`]) {
      expect(output).toContain(url);
    }
    const curls = output.split("\n\n").filter((block) => block.trimStart().startsWith("Try the")).map((block) => block.split("\n").slice(1).join("\n"));
    expect(curls).toHaveLength(2);
    for (const curl of curls) {
      const run = spawnSync("sh", ["-c", curl], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toBeTypeOf("object");
    }
    expect(prismOnPorts(ports.management, ports.alerts)).toHaveLength(2);
  } finally {
    expect(await stopDocs(docs)).toBe(0);
  }
  expect(prismOnPorts(ports.management, ports.alerts)).toEqual([]);
}, 120_000);

it.each(["DOCS_PORT", "MANAGEMENT_MOCK_PORT", "ALERTS_MOCK_PORT"])("a busy %s gives a one-line error naming the port and the variable", async (variable) => {
  const blocker = createServer();
  const port = await freePort();
  await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
  try {
    const others = { DOCS_PORT: String(await freePort()), MANAGEMENT_MOCK_PORT: String(await freePort()), ALERTS_MOCK_PORT: String(await freePort()) };
    const run = spawnSync(process.execPath, ["scripts/start.mjs"], { cwd: root, encoding: "utf8", env: { ...process.env, ...others, [variable]: String(port) } });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`npm start: port ${port} is already in use; set ${variable} to another port\n`);
  } finally {
    blocker.close();
  }
});
