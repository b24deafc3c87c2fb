// The Result pane's part of a call: what the SDK gave back, the value, or the error's class, message and the
// fields it carries, or that the reader cancelled it.
import { block, json } from "./markup.js";
import type { CallRecord } from "./session.js";

// The fields of the SDK's errors worth showing, beside the class and the message.
const errorFields = ["status", "retryAfterMs", "requestId", "operationId", "issues", "body"] as const;

// The reasons the page gave when the reader pressed Cancel: the SDK rejects a cancelled call with that very reason.
const readerCancels = new WeakSet<object>();

/** The reason the page gives when the reader presses Cancel. */
export function cancelReason(): DOMException {
  const reason = new DOMException("the reader cancelled the call", "AbortError");
  readerCancels.add(reason);
  return reason;
}

/** The blocks of one call's result; `call` names it among several ("Call 2 of 5, "), `explain` adds what an error means. */
export function resultBlocks({ attempts, outcome }: CallRecord, call: string, explain: (error: Error) => string | undefined): HTMLElement[] {
  if (!outcome) return [block("p", `${call}running…`, "note")];
  if ("value" in outcome) return [block("h3", `${call}the SDK returned`, "ok"), block("pre", json(outcome.value))];
  const error = outcome.error as Error & Record<string, unknown>;
  if (readerCancels.has(error)) {
    const sentCount = attempts.filter(({ at }) => at !== undefined).length;
    return [
      block("h3", `${call}cancelled`, "failed"),
      block("p", `You cancelled the call: the SDK sent ${sentCount} attempt${sentCount === 1 ? "" : "s"} (above), and sends nothing more.`, "message"),
    ];
  }
  const fields = Object.fromEntries(errorFields.filter((name) => error[name] !== undefined).map((name) => [name, error[name]]));
  const explanation = explain(error);
  return [
    block("h3", `${call}the SDK threw ${error.name}`, "failed"),
    block("p", error.message, "message"),
    ...(explanation ? [block("p", explanation, "explanation")] : []),
    ...(Object.keys(fields).length ? [block("pre", json(fields))] : []),
  ];
}
