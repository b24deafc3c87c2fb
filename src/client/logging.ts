// One log line per attempt, at a level the caller chooses; never a header, so never a secret.

export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/** Anything console-like. */
export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

const rank: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

export type Log = (level: Exclude<LogLevel, "off">, message: string) => void;

/** Undefined when the level is `off`: callers write `log?.(...)`, so nothing is formatted for nobody. */
export function createLog(logger: Logger, level: LogLevel): Log | undefined {
  if (level === "off") return undefined;
  const threshold = rank[level];
  return (lineLevel, message) => {
    if (rank[lineLevel] <= threshold) logger[lineLevel](`[ingestion-api] ${message}`);
  };
}
