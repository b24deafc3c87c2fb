// `ingestion-api verify`: checks a running server of either interface (or both) against the contract, with the
// shared vectors, the declared answers and the flows the links describe, and says what it found.
import { writeFileSync } from "node:fs";
import { packageVersion } from "../../generated/package.js";
import { checkedBaseUrl } from "../client/client-options.js";
import { declaredLimit, type RateLimit, rateLimitFromText } from "../client/rate-limit.js";
import { alerts, type InterfaceDescriptor, management } from "../contract/interfaces.js";
import { operationsOfApi } from "../verify/contract.js";
import type { PipeIds } from "../verify/flows.js";
import { createdByWrites, type Mode } from "../verify/plan.js";
import { duration, json, junit, passed, summary } from "../verify/report.js";
import { runVerify, type Target } from "../verify/run.js";
import { commandArguments, UsageError } from "./arguments.js";

const env = {
  keyId: management.environment.keyId,
  keySecret: management.environment.keySecret,
  token: alerts.environment.token,
};

/** The command's help; it counts from the vectors what --allow-writes leaves behind. */
function usage(): string {
  const created = { ...createdByWrites(management), ...createdByWrites(alerts) };
  return `usage: ingestion-api verify [--management-url URL] [--alerts-url URL] [--key-id ID] [--key-secret SECRET] [--token TOKEN]
                            [--read-only | --allow-writes] [--pipe ORG/SERVICE/PIPE] [--only OPERATION]...
                            [--rate-limit off|N/Ts] [--timeout-ms MS] [--json] [--junit FILE] [--allow-insecure-http]

Checks a running server of the management interface, the alerting one, or both, against the contract:
  refusals        every invalid request of the shared vectors gets the declared 400
  acceptances     every valid one is not refused (2xx, or the declared 404 or 424 for ids the server does not have)
  answers         every answer is one the operation declares: status, media type, body and headers
  authentication  no credentials, made-up ones and the other interface's scheme each get the declared 401
  flows           with --allow-writes: an alert created then read back equal; each endpoint type created; a pipe's
                  settings replaced and read back (settings and pipe); every pipe written gets its settings back
Exits 0 when nothing failed, 1 when something did, 2 for a mistake in the command.

  --management-url, --alerts-url   the server's root, as the SDK's baseUrl (the paths add /v1 and /api/v2)
  --key-id, --key-secret   HTTP Basic credentials of the management interface (else ${env.keyId}, ${env.keySecret})
  --token         Bearer token of the alerting interface (else ${env.token})
  --read-only     send GET requests only
                  (default: also the POST and PUT requests the contract refuses before any change: invalid bodies
                  and parameters, and requests without valid credentials)
  --allow-writes  also send valid POST and PUT bodies and run the flows. The contract has no delete: every alert
                  and endpoint created stays on the server (up to ${created.createAlert} alerts and ${created.createReversePrivateEndpoint} endpoints against a server
                  that has the examples' ids). Every pipe's settings are put back as they were.
  --pipe          ORG/SERVICE/PIPE ids of a pipe the settings flow may change (and a service the endpoints are
                  created for); default the examples' ids, which the sandbox has
  --only          only this operation's checks (an operationId; repeat for more)
  --rate-limit    the pace per credential: default the contract's (10 per 10 s, 100 per 60 s); N/Ts or N/Tms for a
                  server with another; off for none. A 429 pauses the credential for the wait it names, then resends
  --timeout-ms    per request (default 30000)
  --json          print the report as JSON instead of the summary
  --junit FILE    also write the report as JUnit XML, for CI dashboards
  --allow-insecure-http   send credentials over plain http:// to a host other than loopback
Made-up credentials, never yours, are sent for the authentication checks.`;
}

const options = {
  "management-url": { type: "string" },
  "alerts-url": { type: "string" },
  "key-id": { type: "string" },
  "key-secret": { type: "string" },
  token: { type: "string" },
  "read-only": { type: "boolean" },
  "allow-writes": { type: "boolean" },
  pipe: { type: "string" },
  only: { type: "string", multiple: true },
  "rate-limit": { type: "string" },
  "timeout-ms": { type: "string" },
  json: { type: "boolean" },
  junit: { type: "string" },
  "allow-insecure-http": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<typeof commandArguments<typeof options>>;

/** `off`, or `N/Ts` / `N/Tms`; undefined for the contract's own. */
function rateLimitOf(value: string | undefined): RateLimit | "off" | undefined {
  if (value === undefined || value === "off") return value;
  const limit = rateLimitFromText(value);
  if (!limit) throw new UsageError(`--rate-limit takes off, or N/Ts or N/Tms (10/1s, 5/500ms); got ${JSON.stringify(value)}`);
  return limit;
}

function pipeOf(value: string | undefined): PipeIds | undefined {
  if (value === undefined) return undefined;
  const [organizationId, serviceId, pipeId, ...rest] = value.split("/");
  if (!organizationId || !serviceId || !pipeId || rest.length > 0)
    throw new UsageError(`--pipe takes ORG/SERVICE/PIPE, three ids; got ${JSON.stringify(value)}`);
  return { organizationId, serviceId, pipeId };
}

/** A credential from its flag, else the variable the SDK reads. */
const fromFlagOrEnvironment = (flag: string | undefined, variable: string) => flag ?? process.env[variable] ?? "";

function targetOf(api: InterfaceDescriptor, values: Values, limit: RateLimit | "off" | undefined): Target | undefined {
  const url = api === management ? values["management-url"] : values["alerts-url"];
  if (url === undefined) return undefined;
  let baseUrl: string;
  try {
    baseUrl = checkedBaseUrl(`--${api.name}-url`, api, url, values["allow-insecure-http"] ?? false);
  } catch (error) {
    throw new UsageError((error as Error).message.replace("baseUrl", "the URL").replace("pass allowInsecureHttp: true", "pass --allow-insecure-http"));
  }
  const rateLimit = limit === "off" ? undefined : (limit ?? declaredLimit(api));
  if (api === management) {
    const keyId = fromFlagOrEnvironment(values["key-id"], env.keyId);
    const keySecret = fromFlagOrEnvironment(values["key-secret"], env.keySecret);
    if (!keyId || !keySecret)
      throw new UsageError(`the management interface needs a key id and secret: --key-id and --key-secret, or ${env.keyId} and ${env.keySecret}`);
    return { api, baseUrl, credentials: btoa(`${keyId}:${keySecret}`), credentialId: keyId, rateLimit, contractLimit: limit === undefined };
  }
  const token = fromFlagOrEnvironment(values.token, env.token);
  if (!token) throw new UsageError(`the alerting interface needs a token: --token, or ${env.token}`);
  return { api, baseUrl, credentials: token, credentialId: token, rateLimit, contractLimit: limit === undefined };
}

/** The progress line: rewritten in place on a terminal, a line every 15 s in a log. */
function progressReporter(): (progress: { done: number; total: number; leftMs: number }) => void {
  const terminal = process.stderr.isTTY === true;
  let lastLine = 0;
  return ({ done, total, leftMs }) => {
    const line = `verify: ${done}/${total} requests${done === total ? "" : leftMs < 1000 ? ", under a second left" : `, about ${duration(leftMs)} left`}`;
    if (terminal) process.stderr.write(`\r${line}\u001b[K${done === total ? "\n" : ""}`);
    else if (Date.now() - lastLine >= 15_000 || done === total) {
      lastLine = Date.now();
      process.stderr.write(`${line}\n`);
    }
  };
}

/** Runs `ingestion-api verify` with its arguments; sets the exit code (0 passed, 1 failed). */
export async function verifyCommand(argv: string[]): Promise<void> {
  const values = commandArguments("verify", argv, options);
  if (values.help) {
    console.log(usage());
    return;
  }
  if (values["read-only"] && values["allow-writes"]) throw new UsageError("--read-only and --allow-writes contradict each other; pass one");
  const limit = rateLimitOf(values["rate-limit"]);
  const targets = [management, alerts].map((api) => targetOf(api, values, limit)).filter((target) => target !== undefined);
  if (targets.length === 0) throw new UsageError("name a server to check: --management-url URL, --alerts-url URL, or both (ingestion-api verify --help)");
  const known = targets.flatMap((target) => operationsOfApi(target.api).map((operation) => operation.operationId));
  const unknown = (values.only ?? []).filter((operationId) => !known.includes(operationId));
  if (unknown.length > 0) throw new UsageError(`--only ${unknown.join(", ")}: no such operation among ${known.join(", ")}`);
  const timeoutMs = Number(values["timeout-ms"] ?? 30_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new UsageError("--timeout-ms must be a whole number of milliseconds, 1 or more");
  const mode: Mode = values["read-only"] ? "read-only" : values["allow-writes"] ? "writes" : "refusals";

  const report = await runVerify({ targets, mode, only: values.only, pipe: pipeOf(values.pipe), timeoutMs, onProgress: progressReporter() });
  if (values.junit) writeFileSync(values.junit, junit(report));
  process.stdout.write(values.json ? json(report, packageVersion) : `${summary(report, packageVersion)}\n`);
  process.exitCode = passed(report) ? 0 : 1;
}
