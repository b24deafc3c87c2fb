// The settings bounds of the seed, written by hand independently of the spec (contract/cases/seed-settings.mjs),
// hold in the bundle and in Prism: a wrong bound in the spec makes these tests fail.
import { describe, expect, it } from "vitest";
import { booleanSettings, integerSettings } from "../../contract/cases/seed-settings.mjs";
import { bundles } from "../support/bundles.js";
import { pipeSettingsPath } from "../support/paths.js";
import { send } from "../support/prism.js";

const put = (body: unknown) => send("management", "PUT", pipeSettingsPath, { body });

function expectRejected(answer: Awaited<ReturnType<typeof put>>, field: string) {
  expect(answer.status).toBe(400);
  expect(answer.violations.map((v) => v.location.join("."))).toContain(`request.body.${field}`);
}

it("the spec declares exactly the twelve settings of the seed", () => {
  const { properties, required } = bundles.management.components.schemas.PipeSettings;
  const names = [...integerSettings.map(([name]) => name), ...booleanSettings].sort();
  expect(Object.keys(properties).sort()).toEqual(names);
  expect([...required].sort()).toEqual(names);
});

describe.each(integerSettings)("%s (%d..%d)", (field, minimum, maximum) => {
  it("is declared as an integer or null with the seed's inclusive bounds", () => {
    const schema = bundles.management.components.schemas.PipeSettings.properties[field];
    expect(schema).toMatchObject({ type: ["integer", "null"], minimum, maximum });
  });

  it.each([minimum, maximum, null])("is accepted at %s", async (value) => {
    const answer = await put({ [field]: value });
    expect(answer.violations).toEqual([]);
    expect(answer.status).toBe(200);
  });

  it.each([
    ["minimum - 1", minimum - 1],
    ["maximum + 1", maximum + 1],
    ["a fraction", minimum + 0.5],
    ["a string", String(minimum)],
    ["a boolean", true],
  ])("is rejected at %s", async (_label, value) => {
    expectRejected(await put({ [field]: value }), field);
  });
});

describe.each(booleanSettings)("%s", (field) => {
  it.each([true, false, null])("is accepted as %s", async (value) => {
    expect((await put({ [field]: value })).status).toBe(200);
  });

  it.each([["a string", "true"], ["a number", 1]])("is rejected as %s", async (_label, value) => {
    expectRejected(await put({ [field]: value }), field);
  });
});

it("accepts {} (every setting back to the service default)", async () => {
  expect((await put({})).status).toBe(200);
});

it("rejects an unknown settings field such as a misspelt name", async () => {
  const answer = await put({ streaming_max_insert_wait: 5000 });
  expect(answer.status).toBe(400);
  expect(answer.violations.map((v) => v.code)).toContain("additionalProperties");
});
