// Reading an answer's body within its attempt and under the client's cap, once: what the call, its errors, the
// hooks and `raw` then read of it.
import { requestIdHeader } from "../contract/interfaces.js";
import { type CallName, ResponseTooLargeError } from "./errors.js";

/** What the body of a response was, read within the attempt's time. */
export interface ReadBody {
  text: string;
  /** The parsed JSON, or undefined when the body is empty or not JSON. */
  json: unknown;
  isJson: boolean;
}

/** An empty body, and the body of a redirect refused before it was read: one object, frozen, for all of them. */
export const noBody: ReadBody = Object.freeze({ text: "", json: undefined, isJson: false });

/** A body read whole (readText), parsed once. */
export function parsedBody(text: string): ReadBody {
  if (text === "") return noBody;
  try {
    return { text, json: JSON.parse(text), isJson: true };
  } catch {
    // Not JSON (a plain-text 401, an HTML proxy page, a truncated body): the text is kept.
    return { text, json: undefined, isJson: false };
  }
}

/**
 * The body as text, read whole and refused past `limit` bytes decoded. A body of known length that is not
 * compressed is read whole, the fast way; one that is compressed or of unknown length is counted as it streams in,
 * so a compression bomb or an endless body stops at the limit instead of filling memory.
 */
export function readText(response: Response, limit: number, call: CallName): Promise<string> {
  const { headers } = response;
  const length = headers.get("content-length");
  const compressed = headers.has("content-encoding");
  // Not an async function, so the common case costs no promise and no suspended frame of its own.
  if (length !== null && !compressed && Number(length) <= limit) return response.text();
  return readCountedText(response, length !== null && !compressed, limit, call);
}

async function readCountedText(response: Response, tooLong: boolean, limit: number, call: CallName): Promise<string> {
  if (tooLong) {
    await response.body?.cancel();
    throw new ResponseTooLargeError(call, limit, undefined);
  }
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ResponseTooLargeError(call, limit, undefined);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** A body as an error carries it: the parsed JSON, else the text, else undefined for an empty body. */
export function errorBodyOf({ text, json, isJson }: ReadBody): unknown {
  return isJson ? json : text || undefined;
}

/** The request id of an answer: the body's field where the interface has one, else the `x-request-id` header. */
export function requestIdOf(headers: Headers, { json }: ReadBody, field: string | undefined): string | undefined {
  const fromBody = field !== undefined && json !== null && typeof json === "object" ? (json as Record<string, unknown>)[field] : undefined;
  return typeof fromBody === "string" ? fromBody : (headers.get(requestIdHeader) ?? undefined);
}

/**
 * `response`, whose `text()` and `json()` now give `body`, read already: for whoever reads it after the client,
 * `raw`'s openapi-fetch and the `onResponse` hook. Not done for the answers of typed calls, whose resource is
 * their `data`.
 */
export function rereadable(response: Response, body: ReadBody): Response {
  response.text = () => Promise.resolve(body.text);
  response.json = () => (body.isJson ? Promise.resolve(body.json) : Promise.reject(new SyntaxError("the body is not JSON")));
  return response;
}
