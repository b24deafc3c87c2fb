// What the README and RATE-LIMITS.md promise about themselves, read from the sources: the README stays short and
// starts with both clients; RATE-LIMITS.md names only tests that exist. Every block of theirs is compiled and run
// as a reader pastes it by test/docs/shipped-docs.test.ts.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";

const snippets = [...readFileSync(join(root, "README.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);

it("stays under 15 kB, so a newcomer reads how to call the API rather than a diary (issue 21)", () => {
  expect(readFileSync(join(root, "README.md")).length).toBeLessThan(15_000);
});

it("has TypeScript snippets, the first of which makes both clients", () => {
  expect(snippets.length).toBeGreaterThanOrEqual(4);
  expect(snippets[0]).toMatch(/createManagementClient\(/);
  expect(snippets[0]).toMatch(/createAlertsClient\(/);
});

it("RATE-LIMITS.md, which the README links for the detail, names only tests that exist", () => {
  const text = readFileSync(join(root, "RATE-LIMITS.md"), "utf8");
  const named = [...text.matchAll(/`(test\/[\w/.-]+\.test\.ts)`/g)].map((match) => match[1] as string);
  expect(named.length).toBeGreaterThan(3);
  expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
});
