// What an ApiError's message says of the server's answer: its own words (the interface's error field, a text body,
// an HTML page read as text), escaped and cut short, and never more of a page than a message shows.
import { describe, expect, it } from "vitest";
import {
  ApiError,
  printable,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
} from "../../src/client/errors.js";

const call = { label: "getPipe GET /v1/pipes/{pipeId}", operationId: "getPipe" };
const messageOf = (body: unknown, headers: Record<string, string> = {}, errorKey?: string) =>
  new ApiError(502, body, new Headers(headers), undefined, call, errorKey).message;
const bare = `${call.label} failed with HTTP 502`;

describe("printable", () => {
  it("escapes line breaks, ANSI escapes and bidirectional overrides as \\u codes", () => {
    expect(printable("a\nb\r\tc")).toBe("a\\u000ab\\u000d\\u0009c");
    expect(printable("\u001b[31mred")).toBe("\\u001b[31mred");
    expect(printable("abc\u202edef\u2028\u2029")).toBe("abc\\u202edef\\u2028\\u2029");
  });

  it("cuts at 200 characters by default, or at the limit given, and says so", () => {
    expect(printable("x".repeat(200))).toBe("x".repeat(200));
    expect(printable("x".repeat(201))).toBe(`${"x".repeat(200)}…`);
    expect(printable("abcdef", 3)).toBe("abc…");
  });
});

describe("an ApiError's message", () => {
  it("gives the interface's error field", () => {
    expect(messageOf({ error: "pipe not found" }, {}, "error")).toBe(`${bare}: pipe not found`);
    expect(messageOf({ message: "Alert not found" }, {}, "message")).toBe(`${bare}: Alert not found`);
  });

  it("says nothing more for a JSON body without the field, with an empty one, or not text", () => {
    expect(messageOf({ status: 502 }, {}, "error")).toBe(bare);
    expect(messageOf({ error: "" }, {}, "error")).toBe(bare);
    expect(messageOf({ error: 7 }, {}, "error")).toBe(bare);
    expect(messageOf({ error: "x" })).toBe(bare);
    expect(messageOf(undefined)).toBe(bare);
    expect(messageOf(null)).toBe(bare);
  });

  it("says nothing more for a JSON body when the interface names no error field, whatever fields the body has", () => {
    expect(messageOf({ undefined: "a field named undefined", error: "e", message: "m" })).toBe(bare);
  });

  it("gives a text body as it is, tags included, with or without a content type", () => {
    expect(messageOf("upstream <b>busy</b>", { "content-type": "text/plain" })).toBe(`${bare}: upstream <b>busy</b>`);
    expect(messageOf("upstream busy")).toBe(`${bare}: upstream busy`);
  });

  it("says nothing more for a body of white space", () => {
    expect(messageOf(" \n\t ", { "content-type": "text/plain" })).toBe(bare);
    expect(messageOf("<html> <br> </html>", { "content-type": "text/html" })).toBe(bare);
  });

  it("reads a text body's first 1,600 characters: a word after that is not in it", () => {
    expect(messageOf(`Busy${" ".repeat(2_000)}tail`)).toBe(`${bare}: Busy`);
    expect(messageOf(`${"x".repeat(30)} y`)).toBe(`${bare}: ${"x".repeat(30)} y`);
  });

  it("reads an HTML page as its words, without tags, scripts or styles, to its last word", () => {
    const page = "<html><head><style>p { color: red }</style><SCRIPT>alert('<b>')</SCRIPT></head><p>Bad</p>  Gateway";
    expect(messageOf(page, { "content-type": "text/html; charset=utf-8" })).toBe(`${bare}: Bad Gateway`);
    expect(messageOf("<p>Service <em>Unavailable</em></p>", { "content-type": "text/html" })).toBe(`${bare}: Service Unavailable`);
    expect(messageOf("Bad <unclosed", { "content-type": "text/html" })).toBe(`${bare}: Bad`);
    expect(messageOf("<script>never closed", { "content-type": "text/html" })).toBe(bare);
  });

  it("cuts the words at 200 characters", () => {
    const message = messageOf(`<p>${"word ".repeat(100)}</p>`, { "content-type": "text/html" });
    expect(message).toBe(`${bare}: ${"word ".repeat(40)}…`);
  });

  it("reads only a page's start: megabytes of tags after its first words cost nothing", () => {
    const page = `<p>${"word ".repeat(400)}</p>${"<i>".repeat(5_000_000)}`;
    const started = performance.now();
    expect(messageOf(page, { "content-type": "text/html" })).toContain(": word word");
    // About a millisecond; stripping all 15 MB of tags takes 4.5 s here. The bound leaves room for a collection of
    // the heap the unit files share, under the whole suite's load (405 ms once).
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("a RedirectError's message", () => {
  it("says where the server sent the call, which it did not follow", () => {
    const error = new RedirectError(302, new Headers({ location: "https://elsewhere.example/login" }), undefined, call);
    expect(error.location).toBe("https://elsewhere.example/login");
    expect(error.message).toBe(`${call.label} failed with HTTP 302: a redirect to https://elsewhere.example/login, not followed`);
  });

  it("says only that it was a redirect when the server (or a browser) gives no Location", () => {
    const error = new RedirectError(0, new Headers(), undefined, call);
    expect(error.location).toBeUndefined();
    expect(error.message).toBe(`${call.label} failed with HTTP 0: a redirect, not followed`);
  });
});

describe("a validation error's message", () => {
  it("lists each issue by its field, the body itself as (body), separated by semicolons", () => {
    const error = new RequestValidationError(call, [
      { path: "", message: "must be object" },
      { path: "/pipeId", message: "is required" },
    ]);
    expect(error.message).toBe(`Invalid request for ${call.label}, nothing was sent: (body) must be object; /pipeId is required`);
  });

  it("of a response ends with the answer's request id, when it has one", () => {
    const issues = [{ path: "/result", message: "is required" }];
    expect(new ResponseValidationError(call, issues, "req-7").message).toBe(
      `Response of ${call.label} breaks the contract: /result is required (request id req-7)`,
    );
    expect(new ResponseValidationError(call, issues, undefined).message).toBe(`Response of ${call.label} breaks the contract: /result is required`);
  });

  it("of a response too large says the limit, and that reading stopped there, of the body as a whole", () => {
    const error = new ResponseTooLargeError(call, 1_024, undefined);
    expect(error.issues).toEqual([{ path: "", message: "is larger than maxResponseBytes (1024 bytes); reading stopped there" }]);
    expect(error.message).toBe(`Response of ${call.label} breaks the contract: (body) is larger than maxResponseBytes (1024 bytes); reading stopped there`);
  });
});

describe("a RateLimitError's message", () => {
  it("says how long to wait, in whole seconds, when the server said", () => {
    expect(new RateLimitError(429, undefined, new Headers(), undefined, call, undefined, 1_500).message).toBe(
      `${call.label} failed with HTTP 429; retry after 2 s`,
    );
  });

  it("says no wait when the server named none", () => {
    expect(new RateLimitError(429, undefined, new Headers(), undefined, call, undefined, undefined).message).toBe(`${call.label} failed with HTTP 429`);
  });
});
