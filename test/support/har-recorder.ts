// A HAR 1.2 recorder for tests: a fetch that sends as fetch does and keeps each request and its answer as a HAR
// entry, the way a browser's network panel or a recording proxy saves them, so `check-traffic` reads what a team
// would hand it.
import { packageVersion } from "../../generated/package.js";

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string; encoding?: "base64" };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

export interface Har {
  log: { version: "1.2"; creator: { name: string; version: string }; entries: HarEntry[] };
}

const listOf = (headers: Headers): HarHeader[] => [...headers].map(([name, value]) => ({ name, value }));

/** A fetch that records; `har()` gives what it recorded so far. */
export function harRecorder(): { fetch: typeof fetch; har(): Har } {
  const entries: HarEntry[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const started = new Date();
    const sentText = request.body ? await request.clone().text() : undefined;
    const response = await fetch(request);
    const text = await response.clone().text();
    const url = new URL(request.url);
    entries.push({
      startedDateTime: started.toISOString(),
      time: Date.now() - started.getTime(),
      request: {
        method: request.method,
        url: request.url,
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: listOf(request.headers),
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        ...(sentText !== undefined && { postData: { mimeType: request.headers.get("content-type") ?? "", text: sentText } }),
        headersSize: -1,
        bodySize: sentText === undefined ? 0 : Buffer.byteLength(sentText),
      },
      response: {
        status: response.status,
        statusText: response.statusText,
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: listOf(response.headers),
        content: { size: Buffer.byteLength(text), mimeType: response.headers.get("content-type") ?? "", text },
        redirectURL: "",
        headersSize: -1,
        bodySize: Buffer.byteLength(text),
      },
      cache: {},
      timings: { send: 0, wait: Date.now() - started.getTime(), receive: 0 },
    });
    return response;
  };
  return {
    fetch: recording,
    har: () => ({ log: { version: "1.2", creator: { name: "ingestion-api tests", version: packageVersion }, entries: structuredClone(entries) } }),
  };
}
