// `ingestion-api docs`: serves the rendered references of this version on loopback, from an installed package
// with no checkout (the pages come from the companion package ingestion-api-docs: pages.ts), and with --sandbox
// the sandbox beside them, so the pages' samples have a server to run against.
import { packageVersion } from "../../generated/package.js";
import { commandArguments, UsageError } from "../command-arguments.js";
import { defaultCredentials } from "../sandbox/credentials.js";
import { exampleSeed } from "../sandbox/seed.js";
import { startSandbox } from "../sandbox/server.js";
import { stopWithParent } from "../stop-with-parent.js";
import { docsPackage, findPages } from "./pages.js";
import { startDocsServer } from "./server.js";

const defaultPort = 8080;

const usage = `usage: ingestion-api docs [--port N] [--sandbox [--sandbox-port N]] [--dir FOLDER]

Serves the rendered API references of ingestion-api ${packageVersion} on http://127.0.0.1 (loopback only).
The pages are the companion package ${docsPackage}@${packageVersion}: installed beside this one, cached, or else
fetched once from the npm registry with npm (into ~/.cache/ingestion-api).
  --port          port of the pages (default ${defaultPort}; 0 picks a free one)
  --sandbox       also run the sandbox (ingestion-api sandbox), for the pages' samples to call
  --sandbox-port  its port (default 4012; 0 picks a free one)
  --dir           serve this folder of pages instead (say, build/docs of a checkout)
Ctrl-C stops it.`;

const options = {
  port: { type: "string" },
  sandbox: { type: "boolean" },
  "sandbox-port": { type: "string" },
  dir: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const portOf = (flag: string, value: string | undefined, fallback: number): number => {
  const port = Number(value ?? fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--${flag} must be a port number from 0 to 65535`);
  return port;
};

/** Runs `ingestion-api docs` with its arguments (those after the subcommand); resolves once it listens. */
export async function docsCommand(argv: string[]): Promise<void> {
  const values = commandArguments("docs", argv, options);
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = portOf("port", values.port, defaultPort);
  const sandboxPort = portOf("sandbox-port", values["sandbox-port"], 4012);
  if (values["sandbox-port"] !== undefined && !values.sandbox) throw new UsageError("--sandbox-port goes with --sandbox");
  const pages = findPages(packageVersion, { dir: values.dir, log: (line) => console.error(`ingestion-api docs: ${line}`) });
  const listening = async <T>(what: string, chosen: number, start: () => Promise<T>): Promise<T> => {
    try {
      return await start();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(code === "EADDRINUSE" ? `port ${chosen} is already in use; pass ${what} with another one (0 picks a free port)` : String(error));
    }
  };
  const docs = await listening("--port", port, () => startDocsServer({ dir: pages.dir, port }));
  const sandbox = values.sandbox
    ? await listening("--sandbox-port", sandboxPort, () => startSandbox({ seed: exampleSeed(), credentials: defaultCredentials, port: sandboxPort }))
    : undefined;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    Promise.all([docs.close(), sandbox?.close()]).then(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
  stopWithParent(stop);
  const sandboxLine = sandbox
    ? `\n  sandbox  ${sandbox.url} (key id ${defaultCredentials.keyId}, key secret ${defaultCredentials.keySecret}, token ${defaultCredentials.token})`
    : "";
  console.log(`ingestion-api docs ${packageVersion} on ${docs.url}
  pages    ${pages.from}${sandboxLine}
Ctrl-C stops it.`);
}
