// How every subcommand of `ingestion-api` reads its arguments, and what it throws for a mistake in them: the
// command prints the message and exits 2, the exit code of a usage error, so a script can tell it from a failed
// check (1).
import { type ParseArgsConfig, parseArgs } from "node:util";

export class UsageError extends Error {
  override name = "UsageError";
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * The options of `ingestion-api <command>`, strictly: an unknown option or an argument that is not one is a
 * UsageError naming the options the command takes.
 */
export function commandArguments<const O extends Options>(command: string, argv: string[], options: O) {
  return commandLine(command, argv, options, false).values;
}

/** As `commandArguments`, for a command that also takes operands (a file): the options and the operands. */
export function commandLine<const O extends Options>(command: string, argv: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const takes = `ingestion-api ${command} takes ${Object.keys(options)
      .map((name) => `--${name}`)
      .join(", ")} (ingestion-api ${command} --help)`;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
      throw new UsageError(`${/'([^']+)'/.exec(message)?.[1] ?? message} is not an option; ${takes}`);
    throw new UsageError(`${message}; ${takes}`);
  }
}

/** A port flag's value (0 picks a free port), else `fallback`. */
export function portArgument(flag: string, value: string | undefined, fallback: number): number {
  const port = Number(value ?? fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--${flag} must be a port number from 0 to 65535`);
  return port;
}

/** Starts a server of a command; a port in use is a UsageError naming the flag to change. */
export async function listening<T>(flag: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === "EADDRINUSE" ? `port ${port} is already in use; pass --${flag} with another one (0 picks a free port)` : String(error));
  }
}
