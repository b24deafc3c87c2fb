// `ingestion-api`: the package's command (dist/cli.js, the `bin` npm links). One subcommand per job; each parses
// its own arguments and has its own --help. A mistake in how it was called exits 2 with a message naming what it
// takes; a check that fails exits 1; success exits 0.
import { packageVersion } from "../../generated/package.js";
import { UsageError } from "./arguments.js";
import { checkTrafficCommand } from "./check-traffic-command.js";
import { docsCommand } from "./docs-command.js";
import { sandboxCommand } from "./sandbox-command.js";
import { verifyCommand } from "./verify-command.js";

/** The subcommands, with the line `ingestion-api --help` shows for each. */
const commands: Record<string, { summary: string; run(argv: string[]): Promise<void> }> = {
  sandbox: { summary: "run a stateful server of both interfaces, for integration tests in any language", run: sandboxCommand },
  verify: { summary: "check a running server of either interface against the contract", run: verifyCommand },
  "check-traffic": { summary: "check recorded traffic (a HAR file, or JSON Lines) against the contract, offline", run: checkTrafficCommand },
  docs: { summary: "serve the rendered API references of this version on loopback (--sandbox: and the sandbox)", run: docsCommand },
};

const usage = `usage: ingestion-api <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, { summary }]) => `  ${name.padEnd(13)} ${summary}`)
  .join("\n")}

ingestion-api <command> --help shows a command's options; ingestion-api --version prints ${packageVersion}.`;

const known = Object.keys(commands).join(", ");

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === "--help" || first === "-h" || first === "help") {
    const command = first === "help" && rest[0] !== undefined ? commands[rest[0]] : undefined;
    if (command) return command.run(["--help"]);
    if (first === "help" && rest[0] !== undefined) throw new UsageError(`there is no command ${JSON.stringify(rest[0])}; the commands are ${known}`);
    console.log(usage);
    return;
  }
  if (first === "--version" || first === "-v") {
    console.log(packageVersion);
    return;
  }
  if (first === undefined) throw new UsageError(`a command is needed: ${known}\n\n${usage}`);
  const command = commands[first];
  if (!command) {
    const what = first.startsWith("-") ? `the option ${first} belongs to no command` : `there is no command ${JSON.stringify(first)}`;
    throw new UsageError(`${what}; the commands are ${known} (ingestion-api --help)`);
  }
  await command.run(rest);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`ingestion-api: ${error.message}`);
  process.exit(2);
}
