// `ingestion-api check-traffic <file>`: checks recorded traffic (a HAR 1.2 file, or JSON Lines of request and
// response pairs) against the contract, offline: each exchange's operation, parameters, declared headers, request
// body and answer. The wheel `ingestion-api-contract` has the same command for teams without Node.
import { readFileSync, writeFileSync } from "node:fs";
import { packageVersion } from "../../generated/package.js";
import { checkExchange } from "../traffic/check.js";
import { readRecording, UnreadableRecording } from "../traffic/recording.js";
import { json, junit, passed, summary } from "../traffic/report.js";
import { commandLine, UsageError } from "./arguments.js";

const usage = `usage: ingestion-api check-traffic <file> [--json] [--junit FILE]

Checks recorded traffic of either interface against the contract, offline. <file> is a HAR 1.2 file (a browser's
or a proxy's recording) or JSON Lines, one exchange per line:
  {"time": "2026-11-29T10:00:00Z", "request": {"method": "GET", "url": "https://host/v1/...", "headers": {...}},
   "response": {"status": 200, "headers": {"content-type": "application/json"}, "body": {...}}}
(a body is its text, or the JSON value itself; "time" and "response" may be left out).

For each exchange: the operation its method and path are (an unknown one is a finding), its path and query
parameters, Authorization's scheme, the request's Content-Type and body, and the answer's status, media type,
body and declared headers (Retry-After, X-RateLimit-Reset, WWW-Authenticate).
Exits 0 when nothing is found, 1 on a finding, 2 when the file cannot be read.

  --json          print the report as JSON instead of the summary
  --junit FILE    also write the report as JUnit XML, a test case per exchange`;

const options = { json: { type: "boolean" }, junit: { type: "string" }, help: { type: "boolean", short: "h" } } as const;

/** A file that cannot be read is the command's own kind of mistake: exit 2, with the reason. */
function recordingOf(file: string) {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return readRecording(text);
  } catch (error) {
    if (error instanceof UnreadableRecording) throw new UsageError(`cannot read ${file}: ${error.message}`);
    throw error;
  }
}

/** Runs `ingestion-api check-traffic`; sets the exit code (0 nothing found, 1 a finding). */
export async function checkTrafficCommand(argv: string[]): Promise<void> {
  const { values, positionals } = commandLine("check-traffic", argv, options);
  if (values.help) {
    console.log(usage);
    return;
  }
  const [file, ...more] = positionals;
  if (file === undefined || more.length > 0) throw new UsageError(`check-traffic takes one file, a HAR or JSON Lines recording\n\n${usage}`);
  const recording = recordingOf(file);
  const report = { file, format: recording.format, checked: recording.exchanges.map(checkExchange) };
  if (values.junit) {
    try {
      writeFileSync(values.junit, junit(report));
    } catch (error) {
      throw new UsageError(`cannot write --junit ${values.junit}: ${(error as Error).message}`);
    }
  }
  process.stdout.write(values.json ? json(report, packageVersion) : `${summary(report, packageVersion)}\n`);
  process.exitCode = passed(report) ? 0 : 1;
}
