// How `check-traffic` reads a recording and judges one exchange, on the edges a real recording has: a browser's HAR
// (pseudo-headers, base64 bodies, status 0 for no answer, the media type beside the text), JSON Lines with bodies
// as text or already parsed, a list parameter given once, a path of no operation, a scheme of the other interface.
import { describe, expect, it } from "vitest";
import { checkExchange } from "../../src/traffic/check.js";
import { type RecordedExchange, readRecording, UnreadableRecording } from "../../src/traffic/recording.js";

const org = "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b";
const pipePath = `/v1/organizations/${org}/services/3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70/pipes/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a`;
const basic = "Basic c2FuZGJveC1rZXktaWQ6c2FuZGJveC1rZXktc2VjcmV0";

const line = (exchange: object) => JSON.stringify(exchange);
const one = (exchange: object): RecordedExchange => readRecording(line(exchange)).exchanges[0] as RecordedExchange;
const partsOf = (exchange: object) => checkExchange(one(exchange)).findings.map(({ part, where }) => `${part} ${where}`.trim());

const settingsAnswer = { status: 200, requestId: "1c9a2f5e-8b3d-4c1a-9e2f-6a7b8c9d0e1f", result: { engine_max_threads: 8 } };

describe("reading", () => {
  it("reads a browser's HAR: base64 answers, the media type beside the text, and status 0 as no answer", () => {
    const har = {
      log: {
        version: "1.2",
        entries: [
          {
            startedDateTime: "2026-11-29T10:00:00.000Z",
            request: {
              method: "GET",
              url: `http://127.0.0.1:4012${pipePath}/settings`,
              headers: [
                { name: ":authority", value: "x" },
                { name: "Authorization", value: basic },
              ],
            },
            response: {
              status: 200,
              headers: [{ name: ":status", value: "200" }],
              content: { mimeType: "application/json", encoding: "base64", text: Buffer.from(JSON.stringify(settingsAnswer)).toString("base64") },
            },
          },
          {
            startedDateTime: "2026-11-29T10:00:01.000Z",
            request: { method: "GET", url: `http://127.0.0.1:4012${pipePath}`, headers: [] },
            response: { status: 0, headers: [], content: {} },
          },
        ],
      },
    };
    const { format, exchanges } = readRecording(JSON.stringify(har));
    expect(format).toBe("HAR 1.2");
    expect(exchanges.map(({ index, time }) => [index, time])).toEqual([
      [1, "2026-11-29T10:00:00.000Z"],
      [2, "2026-11-29T10:00:01.000Z"],
    ]);
    expect(checkExchange(exchanges[0] as RecordedExchange).findings).toEqual([]);
    expect(exchanges[1]?.response).toBeUndefined();
    expect(checkExchange(exchanges[1] as RecordedExchange).findings.map(({ part }) => part)).toEqual(["request headers"]);
  });

  it("judges an answer whose body the browser did not keep by its status, media type and headers only", () => {
    const entry = (content: object) =>
      readRecording(
        JSON.stringify({
          log: {
            entries: [
              {
                startedDateTime: "2026-11-29T10:00:00.000Z",
                request: { method: "GET", url: `http://127.0.0.1:4012${pipePath}/settings`, headers: [{ name: "Authorization", value: basic }] },
                response: { status: 200, headers: [], content },
              },
            ],
          },
        }),
      ).exchanges[0] as RecordedExchange;
    expect(checkExchange(entry({ size: 120, mimeType: "application/json" })).findings).toEqual([]);
    expect(checkExchange(entry({ size: 120 })).findings).toEqual([]);
    expect(checkExchange(entry({ size: 120, mimeType: "text/html" })).findings.map(({ part }) => part)).toEqual(["response media type"]);
    // Size 0, or no size: the body was empty, and a 200 of this operation has one.
    expect(checkExchange(entry({ size: 0, mimeType: "application/json" })).findings.map(({ part }) => part)).toEqual(["response body"]);
  });

  it("reads JSON Lines with a body as text or as the JSON value itself, and names the line it cannot read", () => {
    const asText = {
      request: { method: "GET", url: `${pipePath}/settings`, headers: { authorization: basic } },
      response: { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(settingsAnswer) },
    };
    const parsed = { ...asText, response: { ...asText.response, body: settingsAnswer } };
    const { format, exchanges } = readRecording(`${line(asText)}\n\n${line(parsed)}\n`);
    expect(format).toBe("JSON Lines");
    expect(exchanges.map((exchange) => checkExchange(exchange).findings)).toEqual([[], []]);
    expect(() => readRecording(`${line(asText)}\n{"request": {"url": "/v1"}}\n`)).toThrow(/line 2: expected \{"request"/);
    expect(() => readRecording(`${line(asText)}\n{oops\n`)).toThrow(/line 2 is not JSON/);
    // Only HTTP's whitespace makes a line blank: the two readers' trims differ beyond it.
    expect(() => readRecording(`${line(asText)}\n\u0085\n`)).toThrow(/line 2 is not JSON/);
    expect(readRecording(`${line(asText)}\n \t\r\n`).exchanges).toHaveLength(1);
    expect(() => readRecording("\n\n")).toThrow(UnreadableRecording);
    expect(() => readRecording('{"log": {"entries": []}}')).toThrow(/no exchanges in it \(HAR 1\.2\)/);
    const harWithStatus = (status: unknown) => JSON.stringify({ log: { entries: [{ request: { method: "GET", url: "/v1" }, response: { status } }] } });
    expect(() => readRecording(harWithStatus("200"))).toThrow(/log\.entries\[0\]\.response\.status is not a status code/);
    expect(() => readRecording(harWithStatus(200.5))).toThrow(UnreadableRecording);
  });
});

describe("judging one exchange", () => {
  it("finds the operation by method and path, and says when there is none or the method is not declared", () => {
    expect(partsOf({ request: { method: "GET", url: "/v1/organizations" } })).toEqual(["operation"]);
    const wrongMethod = checkExchange(one({ request: { method: "DELETE", url: `${pipePath}/settings`, headers: { authorization: basic } } }));
    expect(wrongMethod.operation).toBeUndefined();
    expect(wrongMethod.findings[0]?.rule).toBe(
      "DELETE is not declared for /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings (GET, PUT are)",
    );
    expect(checkExchange(one({ request: { method: "get", url: `${pipePath}/settings`, headers: { authorization: basic } } })).operation?.operationId).toBe(
      "getPipeSettings",
    );
  });

  it("reads the path as recorded: a backslash or a dot segment is no separator a server must resolve", () => {
    const get = (path: string) => checkExchange(one({ request: { method: "GET", url: `http://127.0.0.1:4012${path}`, headers: { authorization: basic } } }));
    expect(get(`/v1/organizations/${org}\\x/services`).findings.map(({ part }) => part)).toEqual(["path"]);
    expect(get(`/v1/organizations/${org}/x/../services`).operation).toBeUndefined();
    expect(get(`/v1/organizations/${org}/services#fragment`).operation?.operationId).toBe("listServices");
  });

  it("reads a list parameter given once as a list, checks each value, and lets undeclared query parameters be", () => {
    const list = (query: string) =>
      partsOf({ request: { method: "GET", url: `/v1/organizations/${org}/services?${query}`, headers: { authorization: basic } } });
    expect(list("filter=tag:env")).toEqual([]);
    expect(list("filter=tag:env&filter=tag:team=data&page=2")).toEqual([]);
    expect(list("filter=env")).toEqual(["query filter"]);
    expect(partsOf({ request: { method: "GET", url: "/v1/organizations/not-a-uuid/services", headers: { authorization: basic } } })).toEqual([
      "path organizationId",
    ]);
  });

  it("holds the request to its interface's scheme and media type, and to a body where one is required", () => {
    const put = (headers: Record<string, string>, body?: string) =>
      partsOf({ request: { method: "PUT", url: `${pipePath}/settings`, headers, ...(body !== undefined && { body }) } });
    const settings = JSON.stringify({ engine_max_threads: 8 });
    expect(put({ authorization: basic, "content-type": "application/json; charset=utf-8" }, settings)).toEqual([]);
    expect(put({ authorization: "Bearer t", "content-type": "application/json" }, settings)).toEqual(["request headers authorization"]);
    const empty = checkExchange(one({ request: { method: "GET", url: `${pipePath}/settings`, headers: { authorization: " " } } }));
    expect(empty.findings.map(({ rule }) => rule)).toEqual(["Authorization is empty; this interface takes Basic"]);
    expect(put({ authorization: basic, "content-type": "text/plain" }, settings)).toEqual(["request headers content-type"]);
    expect(put({ authorization: basic })).toEqual(["request body"]);
    expect(put({ authorization: basic, "content-type": "application/json" }, "{oops")).toEqual(["request body"]);
    expect(put({ authorization: basic, "content-type": "application/json" }, JSON.stringify({ engine_max_threads: "8" }))).toEqual([
      "request body /engine_max_threads",
    ]);
  });

  it("holds the answer to its declared status, media type, body and headers", () => {
    const answer = (response: object) => partsOf({ request: { method: "GET", url: `${pipePath}/settings`, headers: { authorization: basic } }, response });
    const json = { "content-type": "application/json" };
    expect(answer({ status: 418, headers: json, body: settingsAnswer })).toEqual(["response status"]);
    expect(answer({ status: 200, headers: { "content-type": "text/html" }, body: "<p>" })).toEqual(["response media type"]);
    expect(answer({ status: 200, headers: json, body: "{oops" })).toEqual(["response body"]);
    expect(answer({ status: 502, headers: { "content-type": "text/html" }, body: "<p>Bad gateway</p>" })).toEqual([]);
    const limited = { status: 429, requestId: "1c9a2f5e-8b3d-4c1a-9e2f-6a7b8c9d0e1f", error: "slow down" };
    expect(answer({ status: 429, headers: { ...json, "retry-after": "10", "x-ratelimit-reset": "7.5" }, body: limited })).toEqual([]);
    expect(answer({ status: 429, headers: { ...json, "retry-after": "soon" }, body: limited })).toEqual(["response headers retry-after"]);
    // A number only from a JSON number's text: what JavaScript's Number() or Ajv's coercion would also take is text.
    for (const wait of ["0x10", "Infinity", "1e400", "+10", ".5"]) {
      expect(answer({ status: 429, headers: { ...json, "x-ratelimit-reset": wait }, body: limited }), wait).toEqual(["response headers x-ratelimit-reset"]);
    }
    // A value fetch's Headers would refuse is judged as recorded, not dropped.
    expect(answer({ status: 429, headers: { ...json, "retry-after": "１０" }, body: limited })).toEqual(["response headers retry-after"]);
    // Whitespace around a field's value is not part of it (RFC 9110, 5.5).
    expect(answer({ status: 429, headers: { ...json, "retry-after": " 10\t" }, body: limited })).toEqual([]);
  });
});
