// The spec's pipe settings are exactly the seed's (contract/cases/seed-settings.mjs, written from the seed):
// the vectors test each rule of each setting, but only this notices a setting the seed does not have.
import { expect, it } from "vitest";
import { booleanSettings, integerSettings } from "../../contract/cases/seed-settings.mjs";
import { bundles } from "../support/bundles.js";

it("the spec declares exactly the seed's settings, in the response and in the update", () => {
  const names = [...integerSettings.map(([name]) => name), ...booleanSettings].sort();
  const { PipeSettings, PipeSettingsUpdate } = bundles.management.components.schemas;
  expect(Object.keys(PipeSettings.properties).sort()).toEqual(names);
  expect(Object.keys(PipeSettingsUpdate.properties).sort()).toEqual(names);
});
