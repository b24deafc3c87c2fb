// `ingestion-api docs`: serves the rendered references of this version on loopback, from an installed package
// with no checkout (the pages come from the companion package ingestion-api-docs: pages.ts), and with --sandbox
// the sandbox beside them, so the pages' samples have a server to run against. The playground may call that
// sandbox, and the servers named with --connect, and nothing else.

import { packageVersion } from "../../generated/package.js";
import { docsPackage, type FoundPages, findPages, PagesUnavailableError } from "../docs/pages.js";
import { playgroundServerOrigin, startDocsServer } from "../docs/server.js";
import { defaultCredentials } from "../sandbox/credentials.js";
import { exampleSeed } from "../sandbox/seed.js";
import { startSandbox } from "../sandbox/server.js";
import { commandArguments, listening, portArgument, UsageError } from "./arguments.js";
import { defaultPort as defaultSandboxPort } from "./sandbox-command.js";
import { stopOnExit } from "./stop-with-parent.js";

const defaultPort = 8080;

const usage = `usage: ingestion-api docs [--port N] [--sandbox [--sandbox-port N]] [--connect ORIGIN]... [--dir FOLDER]

Serves the rendered API references of ingestion-api ${packageVersion} on http://127.0.0.1 (loopback only).
The pages are the companion package ${docsPackage}@${packageVersion}: installed beside this one, cached, or else
fetched once from the npm registry with npm (into ~/.cache/ingestion-api).
  --port          port of the pages (default ${defaultPort}; 0 picks a free one)
  --sandbox       also run the sandbox (ingestion-api sandbox), for the pages' samples to call
  --sandbox-port  its port (default ${defaultSandboxPort}; 0 picks a free one); the playground may call it
  --connect       a server the playground may call too (its origin: https, or http on this machine); repeatable
  --dir           serve this folder of pages instead (say, build/docs of a checkout)
Ctrl-C stops it.`;

const options = {
  port: { type: "string" },
  sandbox: { type: "boolean" },
  "sandbox-port": { type: "string" },
  connect: { type: "string", multiple: true },
  dir: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Runs `ingestion-api docs` with its arguments (those after the subcommand); resolves once it listens. */
export async function docsCommand(argv: string[]): Promise<void> {
  const values = commandArguments("docs", argv, options);
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = portArgument("port", values.port, defaultPort);
  const sandboxPort = portArgument("sandbox-port", values["sandbox-port"], defaultSandboxPort);
  if (values["sandbox-port"] !== undefined && !values.sandbox) throw new UsageError("--sandbox-port goes with --sandbox");
  const servers = (values.connect ?? []).map(connectOrigin);
  let pages: FoundPages;
  try {
    pages = findPages(packageVersion, { dir: values.dir, log: (line) => console.error(`ingestion-api docs: ${line}`) });
  } catch (error) {
    if (!(error instanceof PagesUnavailableError)) throw error;
    // Nothing to serve: why, and what to do, in one line; a stack trace would only bury it.
    console.error(`ingestion-api docs: ${error.message}`);
    process.exitCode = 1;
    return;
  }
  // The sandbox first: the playground is told its address.
  const sandbox = values.sandbox
    ? await listening("sandbox-port", sandboxPort, () => startSandbox({ seed: exampleSeed(), credentials: defaultCredentials, port: sandboxPort }))
    : undefined;
  const docs = await listening("port", port, () => startDocsServer({ dir: pages.dir, port, servers: { ...(sandbox && { sandbox: sandbox.url }), servers } }));
  stopOnExit(() => Promise.all([docs.close(), sandbox?.close()]));
  const sandboxLine = sandbox
    ? `\n  sandbox  ${sandbox.url} (key id ${defaultCredentials.keyId}, key secret ${defaultCredentials.keySecret}, token ${defaultCredentials.token})`
    : "";
  const connectLine = servers.length > 0 ? `\n  the playground may also call ${servers.join(", ")}` : "";
  console.log(`ingestion-api docs ${packageVersion} on ${docs.url}
  pages    ${pages.from}${sandboxLine}${connectLine}
Ctrl-C stops it.`);
}

/** A --connect value as the origin the playground may call, or a usage error naming the rule. */
function connectOrigin(value: string): string {
  const origin = playgroundServerOrigin(value);
  if (origin === undefined) {
    throw new UsageError(`--connect takes a server's origin, https or on this machine (https://api.example.com, http://127.0.0.1:9000), not ${value}`);
  }
  return origin;
}
