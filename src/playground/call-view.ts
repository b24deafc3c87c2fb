// What a send shows: each attempt's request as it went (the credential masked) in "Request", each answer with its
// status, headers, body and time in "Response", and what the SDK gave back in "Result" (result-view.ts).

import { block, element, json } from "./markup.js";
import { resultBlocks } from "./result-view.js";
import type { CallRecord } from "./session.js";

const pretty = (text: string) => {
  try {
    return json(JSON.parse(text));
  } catch {
    return text;
  }
};
const headerLines = (headers: [string, string][]) => headers.map(([name, value]) => `${name}: ${value}`).join("\n");

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
  records.forEach((record, index) => {
    const { attempts, outcome } = record;
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
    result.append(...resultBlocks(record, call, explain));
  });
}
