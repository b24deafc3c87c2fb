// `ingestion-api sandbox`: the package's command. Starts a stateful sandbox of both interfaces on loopback and
// says where it is and how to authenticate. Ctrl-C stops it.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import packageJson from "../../package.json" with { type: "json" };
import { alerts, management } from "../interfaces.js";
import { defaultCredentials, type SandboxCredentials } from "./credentials.js";
import { rateLimitsOf } from "./rate-limit.js";
import { exampleSeed, type SandboxData, seedFrom } from "./seed.js";
import { startSandbox } from "./server.js";

const defaultPort = 4012;
/** The variables the SDK reads for each credential, which the sandbox reads too. */
const credentialVariables: Record<keyof SandboxCredentials, string> = {
  keyId: management.environment.keyId,
  keySecret: management.environment.keySecret,
  token: alerts.environment.token,
};
const usage = `usage: ingestion-api sandbox [--port N] [--host ADDRESS] [--seed data.json] [--key-id ID] [--key-secret SECRET] [--token TOKEN] [--rate-limit [N/Ts]]

A stateful server of both interfaces (management under /v1, alerting under /api/v2) for integration tests:
created resources can be read back, settings replaced and read again, requests are checked against the contract.
  --port        port to listen on (default ${defaultPort}; 0 picks a free one)
  --host        address to listen on (default 127.0.0.1; another one also exposes the /_sandbox/ routes, which take no credentials)
  --seed        a JSON file of { services, pipes, reversePrivateEndpoints, alerts } to start with, instead of the
                specs' examples (GET /_sandbox/state answers the current data in that shape)
  --key-id, --key-secret   HTTP Basic credentials of the management interface (default ${credentialVariables.keyId}, ${credentialVariables.keySecret}, else printed)
  --token       Bearer token of the alerting interface (default ${credentialVariables.token}, else printed)
  --rate-limit  answer 429 past each credential's limit, as the services do (management: JSON with X-RateLimit-Reset;
                alerting: text/html with Retry-After): alone, the contract's limits (10 per 10 s, 100 per 60 s);
                N/Ts or N/Tms (10/1s) for both interfaces, to test a client's back-off quickly
POST /_sandbox/reset puts the data back as it was at start.`;

function fail(message: string): never {
  console.error(`ingestion-api: ${message}`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  // `--rate-limit` alone means the contract's limits: parseArgs wants a value, so it gets "contract".
  const args = process.argv
    .slice(2)
    .flatMap((arg, index, all) => (arg === "--rate-limit" && (all[index + 1] === undefined || all[index + 1]?.startsWith("-")) ? [arg, "contract"] : [arg]));
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      seed: { type: "string" },
      "key-id": { type: "string" },
      "key-secret": { type: "string" },
      token: { type: "string" },
      "rate-limit": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}
try {
  parsed = parse();
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
const { positionals, values } = parsed;
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (positionals.length !== 1 || positionals[0] !== "sandbox") fail(usage);

const port = Number(values.port ?? defaultPort);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail("--port must be a port number from 0 to 65535");

/** A credential from its flag, else the variable the SDK reads, else the printed default; and where it came from. */
function credential(name: keyof SandboxCredentials, flag: string | undefined): { value: string; from: string } {
  const variable = credentialVariables[name];
  if (flag) return { value: flag, from: "--flag" };
  if (process.env[variable]) return { value: process.env[variable], from: variable };
  return { value: defaultCredentials[name], from: "default" };
}
const chosen = {
  keyId: credential("keyId", values["key-id"]),
  keySecret: credential("keySecret", values["key-secret"]),
  token: credential("token", values.token),
};
const credentials: SandboxCredentials = { keyId: chosen.keyId.value, keySecret: chosen.keySecret.value, token: chosen.token.value };
// A credential set on purpose is not echoed; a default is, since nobody can use the sandbox without it.
const shown = ({ value, from }: { value: string; from: string }) => (from === "default" ? value : `(from ${from === "--flag" ? "its flag" : from})`);

let seed: SandboxData;
try {
  seed = values.seed ? seedFrom(JSON.parse(readFileSync(values.seed, "utf8"))) : exampleSeed();
} catch (error) {
  fail(`--seed ${values.seed}: ${(error as Error).message}`);
}

let rateLimits: ReturnType<typeof rateLimitsOf> | undefined;
try {
  rateLimits = values["rate-limit"] === undefined ? undefined : rateLimitsOf(values["rate-limit"]);
} catch (error) {
  fail((error as Error).message);
}
const limitsLine = rateLimits
  ? `\n  limits      ${[...rateLimits].map(([api, { requests, intervalMs }]) => `${api.name} ${requests} per ${intervalMs} ms`).join(", ")} per credential; past them, 429`
  : "";

try {
  const sandbox = await startSandbox({ seed, credentials, port, host: values.host ?? "127.0.0.1", ...(rateLimits && { rateLimits }) });
  const stop = () => sandbox.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const count = (items: unknown[], name: string) => `${items.length} ${name}${items.length === 1 ? "" : "s"}`;
  const counts = [
    count(seed.services, "service"),
    count(seed.pipes, "pipe"),
    count(seed.reversePrivateEndpoints, "reverse private endpoint"),
    count(seed.alerts, "alert"),
  ].join(", ");
  console.log(`ingestion-api sandbox ${packageJson.version} on ${sandbox.url}
  management  ${sandbox.url}/v1/...      HTTP Basic: key id ${shown(chosen.keyId)}, key secret ${shown(chosen.keySecret)}
  alerts      ${sandbox.url}/api/v2/...  Bearer token ${shown(chosen.token)}
  data        ${values.seed ? values.seed : "the specs' examples"}: ${counts}${limitsLine}
  POST ${sandbox.url}/_sandbox/reset puts the data back; GET ${sandbox.url}/_sandbox/state shows it.
Ctrl-C stops it.`);
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  fail(code === "EADDRINUSE" ? `port ${port} is already in use; pass --port with another one (0 picks a free port)` : String(error));
}
