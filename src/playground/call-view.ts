// What a send shows: each attempt's request as it went (the credential masked) in "Request", each answer with its
// status, headers, body and time in "Response", and what the SDK gave back in "Result": the value, or the error's
// class, message and the fields it carries.
import type { CallRecord } from "./session.js";

const view = (id: string) => document.getElementById(id) as HTMLElement;
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

/** Shows the records of one send (one per call); `note` replaces them when nothing was called. */
export function renderCall(records: CallRecord[], note?: string): void {
  const request = view("request-view");
  const response = view("response-view");
  const result = view("result-view");
  if (note !== undefined) {
    for (const region of [request, response, result]) region.replaceChildren(block("p", note, "note"));
    return;
  }
  request.replaceChildren();
  response.replaceChildren();
  result.replaceChildren();
  records.forEach(({ attempts, outcome }, index) => {
    const call = records.length > 1 ? `Call ${index + 1} of ${records.length}, ` : "";
    if (attempts.length === 0) {
      const nothing = `${call}nothing was sent: the SDK refused the request before sending it.`;
      request.append(block("p", nothing, "note"));
      response.append(block("p", nothing, "note"));
    }
    for (const { attempt, at, request: sent, response: answer } of attempts) {
      request.append(
        block("h3", `${call}attempt ${attempt} · sent at +${at} ms`),
        block("pre", [`${sent.method} ${sent.url}`, headerLines(sent.headers), ...(sent.body ? ["", pretty(sent.body)] : [])].join("\n")),
      );
      if (!answer) {
        response.append(block("h3", `${call}attempt ${attempt}: no answer`));
        continue;
      }
      const then = answer.willRetry ? " · the SDK will send it again" : "";
      response.append(
        block(
          "h3",
          `${call}attempt ${attempt}: ${[answer.status, answer.statusText].filter(Boolean).join(" ")} · ${answer.ms} ms${then}`,
          answer.status < 300 ? "ok" : "failed",
        ),
        block("pre", [headerLines(answer.headers), ...(answer.body ? ["", pretty(answer.body)] : [])].join("\n")),
      );
    }
    if ("value" in outcome) {
      result.append(block("h3", `${call}the SDK returned`, "ok"), block("pre", json(outcome.value)));
      return;
    }
    const error = outcome.error as Error & Record<string, unknown>;
    const fields = Object.fromEntries(errorFields.filter((name) => error[name] !== undefined).map((name) => [name, error[name]]));
    result.append(
      block("h3", `${call}the SDK threw ${error.name}`, "failed"),
      block("p", error.message, "message"),
      ...(Object.keys(fields).length ? [block("pre", json(fields))] : []),
    );
  });
}

/** The sandbox's data, as `GET /_sandbox/state` answers it. */
export function renderState(state: unknown): void {
  view("state-view").textContent = json(state);
}
