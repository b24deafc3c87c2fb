// npm run validate:proxy -- <upstream-url> [--api management|alerts --port N]: Prism in proxy mode with --errors
// in front of a real deployment, so a team can check a live server against the contract. Point a client at the
// proxy (the mocks' ports by default: management 4010, alerts 4011): each valid request is forwarded to the upstream,
// and a response that breaks the contract comes back as 500 application/problem+json, with the violations in its
// `validation` field and in the `sl-violations` header. An invalid request gets 422 and is never forwarded.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { apis, root } from "./lib/toolchain.mjs";

const defaultPorts = { management: 4010, alerts: 4011 };
const usage = "usage: npm run validate:proxy -- <upstream-url> [--api management|alerts [--port N]]";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { api: { type: "string" }, port: { type: "string" } } });
const [upstream] = positionals;
if (positionals.length !== 1 || !/^https?:\/\/./.test(upstream) || (values.api && !apis.includes(values.api)) || (values.port && !values.api)) {
  console.error(usage);
  process.exit(2);
}

const proxied = values.api ? [[values.api, Number(values.port ?? defaultPorts[values.api])]] : apis.map((api) => [api, defaultPorts[api]]);
const children = proxied.map(([api, port]) =>
  // One process per API (no cluster worker), so stopping this script stops Prism.
  spawn(
    process.execPath,
    [
      join(root, "node_modules/@stoplight/prism-cli/dist/index.js"),
      "proxy",
      "--errors",
      "--multiprocess=false",
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      join(root, "generated/openapi", `${api}.json`),
      upstream,
    ],
    { stdio: "inherit" },
  ),
);

const stopAll = (signal) => {
  for (const child of children) if (child.exitCode === null) child.kill(signal);
};
process.on("SIGINT", () => stopAll("SIGINT"));
process.on("SIGTERM", () => stopAll("SIGTERM"));
// When one proxy ends (a port clash, a stop), end the others: a half-running check would mislead.
for (const child of children) {
  child.on("exit", (code) => {
    process.exitCode ||= code ?? 0;
    stopAll("SIGTERM");
  });
}

console.log(
  `validate:proxy: checking ${upstream} against ${proxied.map(([api, port]) => `${api} on http://127.0.0.1:${port}`).join(" and ")}; a response that breaks the contract comes back as 500 application/problem+json`,
);
