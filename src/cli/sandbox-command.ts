// `ingestion-api sandbox`: starts a stateful sandbox of both interfaces on loopback and says where it is and how
// to authenticate. It stops on Ctrl-C, SIGTERM or SIGHUP, and when the process that
// started it goes away (its stdin pipe closes, or its parent is gone), so a test runner never leaves one behind.
import { readFileSync } from "node:fs";
import { packageVersion } from "../../generated/package.js";
import { alerts, management } from "../contract/interfaces.js";
import { defaultCredentials, type SandboxCredentials } from "../sandbox/credentials.js";
import { rateLimitsOf } from "../sandbox/rate-limit.js";
import { exampleSeed, type SandboxData, seedFrom } from "../sandbox/seed.js";
import { startSandbox } from "../sandbox/server.js";
import { commandArguments, listening, portArgument, UsageError } from "./arguments.js";
import { stopOnExit } from "./stop-with-parent.js";

/** The sandbox's port unless told another: `npx ingestion-api docs --sandbox` uses it too. */
export const defaultPort = 4012;
/** The variables the SDK reads for each credential, which the sandbox reads too. */
const credentialVariables: Record<keyof SandboxCredentials, string> = {
  keyId: management.environment.keyId,
  keySecret: management.environment.keySecret,
  token: alerts.environment.token,
};
const usage = `usage: ingestion-api sandbox [--port N] [--host ADDRESS] [--allowed-host NAME]... [--seed data.json] [--key-id ID] [--key-secret SECRET]
                             [--token TOKEN] [--rate-limit [N/Ts]] [--latency MS | MIN-MAX] [--max-resources N]

A stateful server of both interfaces (management under /v1, alerting under /api/v2) for integration tests:
created resources can be read back, settings replaced and read again, requests are checked against the contract.
  --port        port to listen on (default ${defaultPort}; 0 picks a free one)
  --host        address to listen on (default 127.0.0.1). Any other exposes the sandbox, and its /_sandbox/ routes, which
                take no credentials, to whoever reaches that address
  --allowed-host  a host name it also answers to (a container's name, say); it answers only its own names otherwise
  --seed        a JSON file of { services, pipes, reversePrivateEndpoints, alerts } to start with, instead of the
                specs' examples (GET /_sandbox/state answers the current data in that shape)
  --key-id, --key-secret   HTTP Basic credentials of the management interface (default ${credentialVariables.keyId}, ${credentialVariables.keySecret}, else printed)
  --token       Bearer token of the alerting interface (default ${credentialVariables.token}, else printed)
  --rate-limit  answer 429 past each credential's limit, as the services do (management: JSON with X-RateLimit-Reset;
                alerting: text/html with Retry-After): alone, the contract's limits (10 per 10 s, 100 per 60 s);
                N/Ts or N/Tms (10/1s) for both interfaces, to test a client's back-off quickly
  --latency     milliseconds every answer waits: a number, or MIN-MAX for a delay drawn for each answer
  --max-resources  the most reverse private endpoints, and alerts, that creates may add (default 10000)
Test what fails too: a Prefer header (code=404, example=NAME) gets any answer the operation declares
(code=429, retry-after=1: a 429 that names a 1 s wait), and POST /_sandbox/faults adds rules ({"operation":
"getPipe", "status": 503, "count": 1}; "reset", "truncate"; delayMs, probability, retryAfterSeconds, headers).
The own routes take POST and DELETE as JSON: curl -X POST -H 'content-type: application/json' -d '{}'
URL/_sandbox/reset puts the data back as it was at start.`;

/** A usage error: the command stops with exit code 2 and the message. */
function fail(message: string): never {
  throw new UsageError(message);
}

const options = {
  port: { type: "string" },
  host: { type: "string" },
  seed: { type: "string" },
  "key-id": { type: "string" },
  "key-secret": { type: "string" },
  token: { type: "string" },
  "rate-limit": { type: "string" },
  latency: { type: "string" },
  "allowed-host": { type: "string", multiple: true },
  "max-resources": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function parse(argv: string[]) {
  // `--rate-limit` alone means the contract's limits: parseArgs wants a value, so it gets "contract".
  const args = argv.flatMap((arg, index, all) =>
    arg === "--rate-limit" && (all[index + 1] === undefined || all[index + 1]?.startsWith("-")) ? [arg, "contract"] : [arg],
  );
  return commandArguments("sandbox", args, options);
}

/** Runs `ingestion-api sandbox` with its arguments (those after the subcommand); resolves once it listens. */
export async function sandboxCommand(argv: string[]): Promise<void> {
  const values = parse(argv);
  if (values.help) {
    console.log(usage);
    return;
  }
  await serve(values);
}

async function serve(values: ReturnType<typeof parse>): Promise<void> {
  const port = portArgument("port", values.port, defaultPort);
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
  const latencyMs = values.latency === undefined ? undefined : latencyOf(values.latency);
  const maxResources = Number(values["max-resources"] ?? 10_000);
  if (!Number.isInteger(maxResources) || maxResources < 0) fail("--max-resources must be an integer of 0 or more");
  const host = values.host ?? "127.0.0.1";
  const loopback = host === "localhost" || host === "::1" || /^127\./.test(host);
  const limitsLine = rateLimits
    ? `\n  limits      ${[...rateLimits].map(([api, { requests, intervalMs }]) => `${api.name} ${requests} per ${intervalMs} ms`).join(", ")} per credential; past them, 429`
    : "";

  const sandbox = await listening("port", port, () =>
    startSandbox({
      seed,
      credentials,
      port,
      host,
      extraHosts: values["allowed-host"] ?? [],
      maxResources,
      ...(rateLimits && { rateLimits }),
      ...(latencyMs !== undefined && { latencyMs }),
    }),
  );
  stopOnExit(() => sandbox.close());
  const count = (items: unknown[], name: string) => `${items.length} ${name}${items.length === 1 ? "" : "s"}`;
  const counts = [
    count(seed.services, "service"),
    count(seed.pipes, "pipe"),
    count(seed.reversePrivateEndpoints, "reverse private endpoint"),
    count(seed.alerts, "alert"),
  ].join(", ");
  if (!loopback) {
    console.warn(
      `ingestion-api: warning: listening on ${host}, not loopback: whoever reaches it can use the sandbox with the credentials below and its /_sandbox/ routes (reset, state, faults), which take none`,
    );
  }
  console.log(`ingestion-api sandbox ${packageVersion} on ${sandbox.url}
  management  ${sandbox.url}/v1/...      HTTP Basic: key id ${shown(chosen.keyId)}, key secret ${shown(chosen.keySecret)}
  alerts      ${sandbox.url}/api/v2/...  Bearer token ${shown(chosen.token)}
  data        ${values.seed ? values.seed : "the specs' examples"}: ${counts}${limitsLine}${firstCallIds(seed)}
  reset       curl -X POST -H 'content-type: application/json' -d '{}' ${sandbox.url}/_sandbox/reset
              puts the data back; GET ${sandbox.url}/_sandbox/state shows it; /_sandbox/faults injects failures
Ctrl-C stops it.`);
}

/**
 * The ids of the seed a first call needs, as a line of the banner: a pipe with the service and organization it is
 * reached by, and an alert; a part the seed lacks is left out, and the whole line when it lacks them all.
 */
function firstCallIds(seed: SandboxData): string {
  const reachable = seed.pipes.find((pipe) => seed.services.some(({ service }) => service.id === pipe.serviceId));
  const owner = seed.services.find(({ service }) => service.id === reachable?.serviceId) ?? seed.services[0];
  const ids = [
    ...(owner ? [`organization ${owner.organizationId}`, `service ${owner.service.id}`] : []),
    ...(reachable ? [`its pipe ${reachable.id}`] : []),
    ...(seed.alerts[0] ? [`alert ${seed.alerts[0].id}`] : []),
  ];
  return ids.length === 0 ? "" : `\n  ids         ${ids.join(", ")}`;
}

/** A credential from its flag, else the variable the SDK reads, else the printed default; and where it came from. */
function credential(name: keyof SandboxCredentials, flag: string | undefined): { value: string; from: string } {
  const variable = credentialVariables[name];
  if (flag) return { value: flag, from: "--flag" };
  if (process.env[variable]) return { value: process.env[variable], from: variable };
  return { value: defaultCredentials[name], from: "default" };
}

/** `--latency 50` or `--latency 20-80`. */
function latencyOf(value: string): number | [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(value);
  const [low, high] = [Number(match?.[1]), Number(match?.[2] ?? match?.[1])];
  if (!match || low > high || high > 60_000) fail(`--latency takes milliseconds up to 60000, or MIN-MAX (say 20-80); got ${JSON.stringify(value)}`);
  return low === high ? low : [low, high];
}
