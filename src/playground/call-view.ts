// What a send shows: each attempt's request as it went (the credential masked) in "Request", each answer with its
// status, headers, body and time in "Response", and what the SDK gave back in "Result": the value, or the error's
// class, message and the fields it carries.

import { element } from "./markup.js";
import type { CallRecord } from "./session.js";

const block = (tag: string, text: string, className?: string) =>
  Object.assign(document.createElement(tag), {
    textContent: text,
    ...(className && { className }),
    // A block of code may scroll sideways: a keyboard reaches it to scroll it (WCAG 2.1.1).
    ...(tag === "pre" && { tabIndex: 0 }),
  });
const json = (value: unknown) => JSON.stringify(value, null, 2);
const pretty = (text: string) => {
  try {
    return json(JSON.parse(text));
  } catch {
    return text;
  }
};
const headerLines = (headers: [string, string][]) => headers.map(([name, value]) => `${name}: ${value}`).join("\n");

// The fields of the SDK's errors worth showing, beside the class and the message.
const errorFields = ["status", "retryAfterMs", "requestId", "operationId", "issues", "body"] as const;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
// What "Response" and "Result" say before anything is sent.
const noAnswer = "No answer yet.";
const noResult = "What the SDK returns, or the error it throws.";

/**
 * Shows the records of one send (one per call), as far as each has gone: an attempt waiting for its turn, sent, or
 * answered, and the wait before the next; the result once the call is over. `note` says, once, why nothing shows.
 */
export function renderCall(records: CallRecord[], note?: string, explain: (error: Error) => string | undefined = () => undefined): void {
  const request = element("request-view");
  const response = element("response-view");
  const result = element("result-view");
  if (note !== undefined) {
    request.replaceChildren(block("p", note, "note"));
    response.replaceChildren(block("p", noAnswer, "note"));
    result.replaceChildren(block("p", noResult, "note"));
    return;
  }
  request.replaceChildren();
  response.replaceChildren();
  result.replaceChildren();
  records.forEach(({ attempts, outcome }, index) => {
    const call = records.length > 1 ? `Call ${index + 1} of ${records.length}, ` : "";
    if (attempts.length === 0) {
      const nothing = outcome ? `${call}nothing was sent: the SDK refused the request before sending it.` : `${call}about to be sent.`;
      request.append(block("p", nothing, "note"));
      response.append(block("p", nothing, "note"));
    }
    attempts.forEach(({ attempt, queued, at, request: sent, response: answer }, index) => {
      const waited = queued ? `waited for its turn from +${queued.at} ms` : "";
      if (at === undefined) {
        if (outcome) {
          request.append(block("h3", `${call}attempt ${attempt} · left the rate-limit queue unsent (it waited from +${queued?.at} ms)`));
          return;
        }
        // A retry after a 429 waits in the queue for the 429's pause, then for its turn.
        const pause = attempts[index - 1]?.response?.retryInMs;
        const why = pause === undefined ? "" : `: the 429's pause of ${seconds(pause)}, then its turn`;
        const about = queued?.aboutMs === undefined ? "" : `, about ${seconds(queued.aboutMs)}`;
        request.append(block("h3", `${call}attempt ${attempt} · waiting since +${queued?.at} ms${why} (rate-limit queue: ${queued?.waiting} waiting${about})`));
        return;
      }
      request.append(block("h3", `${call}attempt ${attempt} · sent at +${at} ms${waited && ` (${waited})`}`));
      if (sent)
        request.append(block("pre", [`${sent.method} ${sent.url}`, headerLines(sent.headers), ...(sent.body ? ["", pretty(sent.body)] : [])].join("\n")));
      if (!answer) {
        response.append(block("h3", `${call}attempt ${attempt}: ${outcome ? "no answer" : "waiting for the answer"}`));
        return;
      }
      const then = answer.willRetry ? ` · the SDK will send it again${answer.retryInMs === undefined ? "" : ` in ${seconds(answer.retryInMs)}`}` : "";
      response.append(
        block(
          "h3",
          `${call}attempt ${attempt}: ${[answer.status, answer.statusText].filter(Boolean).join(" ")} · ${answer.ms} ms${then}`,
          answer.status < 300 ? "ok" : "failed",
        ),
        block("pre", [headerLines(answer.headers), ...(answer.body ? ["", pretty(answer.body)] : [])].join("\n")),
      );
    });
    const last = attempts.at(-1)?.response;
    if (!outcome && last?.willRetry) {
      request.append(
        block("p", `${call}attempt ${(attempts.at(-1)?.attempt ?? 0) + 1} ${last.retryInMs === undefined ? "next" : `in ${seconds(last.retryInMs)}`}`, "note"),
      );
    }
    if (!outcome) {
      result.append(block("p", `${call}running…`, "note"));
      return;
    }
    if ("value" in outcome) {
      result.append(block("h3", `${call}the SDK returned`, "ok"), block("pre", json(outcome.value)));
      return;
    }
    const error = outcome.error as Error & Record<string, unknown>;
    if (readerCancels.has(error)) {
      const sentCount = attempts.filter(({ at }) => at !== undefined).length;
      result.append(
        block("h3", `${call}cancelled`, "failed"),
        block("p", `You cancelled the call: the SDK sent ${sentCount} attempt${sentCount === 1 ? "" : "s"} (above), and sends nothing more.`, "message"),
      );
      return;
    }
    const fields = Object.fromEntries(errorFields.filter((name) => error[name] !== undefined).map((name) => [name, error[name]]));
    const explanation = explain(error);
    result.append(
      block("h3", `${call}the SDK threw ${error.name}`, "failed"),
      block("p", error.message, "message"),
      ...(explanation ? [block("p", explanation, "explanation")] : []),
      ...(Object.keys(fields).length ? [block("pre", json(fields))] : []),
    );
  });
}

// The reasons the page gave when the reader pressed Cancel: the SDK rejects a cancelled call with that very reason.
const readerCancels = new WeakSet<object>();

/** The reason the page gives when the reader presses Cancel. */
export function cancelReason(): DOMException {
  const reason = new DOMException("the reader cancelled the call", "AbortError");
  readerCancels.add(reason);
  return reason;
}

/** The sandbox's data, as `GET /_sandbox/state` answers it. */
export function renderState(state: unknown): void {
  element("state-view").textContent = json(state);
}
