// The credential digest every client gives its rate-limit store: SHA-256 as Node computes it, for any text, so
// that every process, in Node or a browser, names a credential alike and a shared store still shares.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../src/client/sha256.js";

const nodeSha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("sha256", () => {
  it("gives FIPS 180-4's digests of the empty string and 'abc'", () => {
    expect(sha256("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("agrees with Node's at every length around a block's edges (55, 56, 63, 64 bytes and more)", () => {
    for (let length = 0; length <= 200; length++) expect(sha256("x".repeat(length))).toBe(nodeSha256("x".repeat(length)));
  });

  it("agrees with Node's for any text, non-ASCII included (property, 300 strings)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (text) => sha256(text) === nodeSha256(text)),
      { numRuns: 300 },
    );
  });
});
