// The ids the reader created, so that the operation reading such an item takes the last one instead of the seed's:
// `POST /api/v2/alerts` returned an alert whose id `getAlert` (`/api/v2/alerts/{id}`) then reads.
import type { PlaygroundOperation } from "./operations.js";
import type { CallRecord } from "./session.js";

type Paths = Pick<PlaygroundOperation, "method" | "path">;

export class CreatedIds {
  /** The last id created, by the path of the items it names with a slash (`/api/v2/alerts/`). */
  readonly #byItemPath = new Map<string, string>();

  /** Keeps the id of each item a POST of `sent` returned (the last call's last, when several created one). */
  remember(sent: Paths, records: CallRecord[]): void {
    if (sent.method !== "POST") return;
    for (const { outcome } of records) {
      const id = outcome && "value" in outcome ? (outcome.value as { id?: unknown } | null)?.id : undefined;
      if (typeof id === "string") this.#byItemPath.set(`${sent.path}/`, id);
    }
  }

  /** The id last created that `operation`'s path parameter `name` names, if its path ends with it. */
  for(operation: Paths, name: string): string | undefined {
    const end = `{${name}}`;
    return operation.path.endsWith(end) ? this.#byItemPath.get(operation.path.slice(0, -end.length)) : undefined;
  }

  /** Forgets them all: the sandbox they were made in is gone. */
  clear(): void {
    this.#byItemPath.clear();
  }
}
