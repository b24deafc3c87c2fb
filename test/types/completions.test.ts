// What an editor offers while a user types a request body whose `type` or `source` picks a branch: every branch
// at the empty string, while each body the contract refuses is still a compile error. Under the project's own
// settings (exactOptionalPropertyTypes on) and a typical consumer's (off).
import { beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { openEditor } from "../support/editor.js";
import { accepted, refused, typing } from "../support/request-unions.js";

const files = Object.fromEntries([typing, ...refused, ...accepted].map((entry, index) => [`test/types/editing-${index}.ts`, entry.text]));
const fileOf = (entry: { text: string }) => Object.keys(files).find((name) => files[name] === entry.text)!;

describe.each([
  { settings: "the project's (exactOptionalPropertyTypes on)", options: {} },
  { settings: "a consumer's (exactOptionalPropertyTypes off)", options: { exactOptionalPropertyTypes: false } },
])("under $settings compiler settings", ({ options }) => {
  const editor = openEditor(root, files, options);
  beforeAll(() => editor.load(), 30_000);

  it.each(typing.expected)("offers every value at $needle", ({ needle, offers }) => {
    expect(editor.completions(fileOf(typing), needle).sort()).toEqual([...offers].sort());
  });

  it.each(refused)("refuses $name", (entry) => {
    expect(editor.errors(fileOf(entry))).not.toEqual([]);
  });

  it.each(accepted)("accepts $name", (entry) => {
    expect(editor.errors(fileOf(entry))).toEqual([]);
  });
});
