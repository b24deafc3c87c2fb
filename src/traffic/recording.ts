// What `ingestion-api check-traffic` reads: a recording of exchanges, a HAR 1.2 file (a browser's or a proxy's) or
// JSON Lines of `{ time?, request: {method, url, headers?, body?}, response?: {status, headers?, body?} }`, turned
// into one shape. The wheel's reader (contract/python) reads the same formats the same way (CONTRACT.md,
// "Check recorded traffic").

/** One recorded request and what came back, if anything did. */
export interface RecordedExchange {
  /** From 1, in the file's order. */
  index: number;
  /** When it was sent, as the recording states it (HAR's `startedDateTime`, JSON Lines' `time`). */
  time: string | undefined;
  method: string;
  /** Absolute, or a path with its query. */
  url: string;
  request: RecordedMessage;
  /** Undefined when no answer was recorded (HAR status 0, JSON Lines without `response`). */
  response: (RecordedMessage & { status: number; bodyNotRecorded?: boolean }) | undefined;
}

export interface RecordedMessage {
  /** By lower-case name; a header given twice keeps its first value. */
  headers: Map<string, string>;
  /** The body's text; undefined when there is none. */
  text: string | undefined;
  /** The body as a JSON value, when the recording holds it parsed (JSON Lines); else undefined. */
  parsed?: { value: unknown };
}

/**
 * The path and the query of a recorded URL (absolute, or a path), as recorded, the way Python's `urlsplit` reads
 * them: not through `new URL`, which would turn a `\\` into `/` and resolve `..`, as no server is bound to. Tabs and
 * line breaks are dropped and leading control characters and spaces trimmed, as both readers do.
 */
export function pathAndQuery(url: string): { path: string; query: string } {
  let start = 0;
  while (start < url.length && url.charCodeAt(start) <= 0x20) start++;
  let rest = url
    .slice(start)
    .replace(/[\t\r\n]/g, "")
    .replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, "");
  if (rest.startsWith("//")) rest = rest.slice(2).replace(/^[^/?#]*/, "");
  const [beforeFragment = ""] = rest.split("#");
  const at = beforeFragment.indexOf("?");
  return at < 0 ? { path: beforeFragment, query: "" } : { path: beforeFragment.slice(0, at), query: beforeFragment.slice(at + 1) };
}

/** A recording that cannot be read: the command exits 2 with this message. */
export class UnreadableRecording extends Error {
  override name = "UnreadableRecording";
}

export interface Recording {
  format: "HAR 1.2" | "JSON Lines";
  exchanges: RecordedExchange[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The headers of a HAR list (`[{name, value}]`) or a JSON Lines object (`{name: value}`), by lower-case name. */
function headersOf(given: unknown, where: string): Map<string, string> {
  const headers = new Map<string, string>();
  const add = (name: unknown, value: unknown) => {
    if (typeof name !== "string" || typeof value !== "string") throw new UnreadableRecording(`${where}: a header's name and value must be strings`);
    // A field's value has no leading or trailing whitespace (RFC 9110, 5.5): a recording may keep some.
    if (!headers.has(name.toLowerCase())) headers.set(name.toLowerCase(), value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, ""));
  };
  if (Array.isArray(given)) for (const header of given) add(isObject(header) ? header.name : undefined, isObject(header) ? header.value : undefined);
  else if (isObject(given)) for (const [name, value] of Object.entries(given)) add(name, value);
  else if (given !== undefined && given !== null) throw new UnreadableRecording(`${where}: headers must be a list of {name, value} or an object`);
  return headers;
}

/** HAR gives the media type beside the text too: it stands for a Content-Type the headers leave out. */
function withMediaType(headers: Map<string, string>, mimeType: unknown): Map<string, string> {
  if (!headers.has("content-type") && typeof mimeType === "string" && mimeType !== "") headers.set("content-type", mimeType);
  return headers;
}

function harExchange(entry: unknown, index: number): RecordedExchange {
  const where = `log.entries[${index - 1}]`;
  if (!isObject(entry) || !isObject(entry.request) || !isObject(entry.response)) throw new UnreadableRecording(`${where} has no request and response`);
  const { request, response } = entry;
  if (typeof request.method !== "string" || typeof request.url !== "string") throw new UnreadableRecording(`${where}.request has no method and url`);
  const postData = isObject(request.postData) ? request.postData : {};
  const content = isObject(response.content) ? response.content : {};
  const status = response.status;
  if (typeof status !== "number" || !Number.isInteger(status)) throw new UnreadableRecording(`${where}.response.status is not a status code`);
  const text = typeof content.text === "string" ? (content.encoding === "base64" ? Buffer.from(content.text, "base64").toString("utf8") : content.text) : "";
  // A browser leaves out bodies it did not keep (large ones, or all of them), and gives their size.
  const bodyNotRecorded = typeof content.text !== "string" && typeof content.size === "number" && content.size > 0;
  return {
    index,
    time: typeof entry.startedDateTime === "string" ? entry.startedDateTime : undefined,
    method: request.method,
    url: request.url,
    request: {
      headers: withMediaType(headersOf(request.headers, `${where}.request`), postData.mimeType),
      text: typeof postData.text === "string" ? postData.text : undefined,
    },
    // A browser records status 0 for a request that got no answer (blocked, cancelled, offline).
    response:
      status === 0
        ? undefined
        : {
            status,
            headers: withMediaType(headersOf(response.headers, `${where}.response`), content.mimeType),
            text,
            ...(bodyNotRecorded && { bodyNotRecorded }),
          },
  };
}

/** A JSON Lines body: text as given, any other JSON value as the body already parsed. */
function bodyOf(body: unknown): Pick<RecordedMessage, "text" | "parsed"> {
  if (body === undefined || body === null) return { text: undefined };
  if (typeof body === "string") return { text: body };
  return { text: JSON.stringify(body), parsed: { value: body } };
}

function jsonLinesExchange(line: unknown, index: number, lineNumber: number): RecordedExchange {
  const where = `line ${lineNumber}`;
  if (!isObject(line) || !isObject(line.request) || typeof line.request.method !== "string" || typeof line.request.url !== "string")
    throw new UnreadableRecording(`${where}: expected {"request": {"method", "url", ...}, "response": {...}}`);
  const { request, response } = line as { request: Json & { method: string; url: string }; response: unknown };
  if (response !== undefined && response !== null && !(isObject(response) && Number.isInteger(response.status)))
    throw new UnreadableRecording(`${where}: response must be {"status": <integer>, ...} or left out`);
  return {
    index,
    time: typeof line.time === "string" ? line.time : undefined,
    method: request.method,
    url: request.url,
    request: { headers: headersOf(request.headers, `${where}.request`), ...bodyOf(request.body) },
    response: isObject(response)
      ? { status: response.status as number, headers: headersOf(response.headers, `${where}.response`), ...bodyOf(response.body) }
      : undefined,
  };
}

/** Reads a recording's text: HAR when the whole text is JSON with `log.entries`, else JSON Lines. */
export function readRecording(text: string): Recording {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    // Not one JSON document: JSON Lines, read below.
  }
  let recording: Recording;
  if (isObject(whole) && isObject(whole.log) && Array.isArray(whole.log.entries)) {
    recording = { format: "HAR 1.2", exchanges: whole.log.entries.map((entry, at) => harExchange(entry, at + 1)) };
  } else {
    const exchanges: RecordedExchange[] = [];
    for (const [at, line] of text.split("\n").entries()) {
      // Blank: nothing but HTTP's whitespace (JavaScript's trim() and Python's strip() disagree on the rest).
      if (/^[ \t\r]*$/.test(line)) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (error) {
        throw new UnreadableRecording(`line ${at + 1} is not JSON (${(error as Error).message}); expected a HAR 1.2 file or JSON Lines`);
      }
      exchanges.push(jsonLinesExchange(parsed, exchanges.length + 1, at + 1));
    }
    recording = { format: "JSON Lines", exchanges };
  }
  if (recording.exchanges.length === 0) throw new UnreadableRecording(`no exchanges in it (${recording.format})`);
  return recording;
}
