// The code samples of the rendered docs: one per language, and per named request example where an operation has
// them, labelled with the example's summary, in the order their entries show, each starting with its address in the
// playground; the description links to the playground too. The curl ones, exactly as shown, work against the mocks
// once the environment names them. The Python and Go ones run in language-samples.test.ts, the TypeScript ones are
// type-checked in typescript-samples.test.ts.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
// The generators from their sources, the references' from the bundle code-samples.mjs makes of them: a sample shown
// must be what the source writes (and a mutation test of src/samples/ reaches the code it changes).
import { redocLanguages, withCodeSamples } from "../../scripts/lib/code-samples.mjs";
import { interfaces } from "../../src/contract/interfaces.js";
import { exampleRequest, namedExamples, operationsOf } from "../../src/contract/openapi.js";
import { curlSample, goSample, pythonSample } from "../../src/samples/http-samples.js";
import { typescriptSample } from "../../src/samples/typescript-sample.js";

const apis = [
  ["management", inject("managementUrl")],
  ["alerts", inject("alertsUrl")],
] as const;
const credentials = { INGESTION_API_KEY_ID: "sample-key-id", INGESTION_API_KEY_SECRET: "sample-key-secret", INGESTION_ALERTS_TOKEN: "sample-token" };
const languages = [
  ["TypeScript", "TypeScript SDK", "//", typescriptSample],
  ["curl", "curl", "#", curlSample],
  ["Python", "Python", "#", pythonSample],
  ["Go", "Go", "//", goSample],
] as const;

interface Shown {
  lang: string;
  label: string;
  source: string;
}

describe.each(apis)("%s", (api, mockUrl) => {
  const bundle = JSON.parse(readFileSync(new URL(`../../generated/openapi/${api}.json`, import.meta.url), "utf8"));
  const documented = operationsOf(withCodeSamples(bundle));
  const shownOf = (operationId: string) => documented.find((d) => d.operationId === operationId)!.operation;
  const table = operationsOf(bundle).map((entry) => [entry.operationId as string, entry] as const);

  it.each(table)(
    "%s: the docs show each language's sample of each named example, grouped by language, each at its playground address",
    (operationId, entry) => {
      const named = namedExamples(bundle, entry);
      const shown: Shown[] = shownOf(operationId)["x-codeSamples"];
      const expected =
        named.length === 0
          ? languages.map(([lang, label, comment, sample]) => ({
              lang,
              label,
              source: `${comment} Try it in the playground: playground.html#${operationId}\n${sample(bundle, entry)}`,
            }))
          : languages.flatMap(([lang, , comment, sample]) =>
              named.map(({ key, summary, request }) => ({
                lang,
                label: `${lang} · ${summary}`,
                source: `${comment} Try it in the playground: playground.html#${operationId}/${key}\n${sample(bundle, entry, request)}`,
              })),
            );
      expect(shown).toEqual(expected);
      // Each named example's samples send that example, not the first one.
      expect(new Set(shown.map(({ source }) => source)).size).toBe(shown.length);
    },
  );

  it.each(table)("%s: the description links to the playground at the operation and at each named example", (operationId, entry) => {
    const { description } = shownOf(operationId);
    const examples = namedExamples(bundle, entry).map(({ key, summary }) => `[${summary}](playground.html#${operationId}/${key})`);
    expect(description.startsWith(entry.operation.description)).toBe(true);
    expect(description.endsWith(`[Try it in the playground](playground.html#${operationId})${examples.length > 0 ? `: ${examples.join(" · ")}` : ""}`)).toBe(
      true,
    );
  });

  it("offers Redoc every sample's label (it shows no sample its config does not name), grouped by language, then the payload", () => {
    const offered: { lang: string; label?: string }[] = redocLanguages(withCodeSamples(bundle));
    const shown: Shown[] = documented.flatMap(({ operation }) => operation["x-codeSamples"]);
    expect(new Set(offered.map(({ label }) => label))).toEqual(new Set([...shown.map(({ label }) => label), undefined]));
    expect(offered.map(({ lang }) => lang)).toEqual([
      ...languages.flatMap(([lang]) => offered.filter((language) => language.lang === lang).map(() => lang)),
      "Payload",
    ]);
    // Within an operation, its entries keep the order withCodeSamples gives them.
    const position = new Map(offered.map(({ label }, index) => [label, index]));
    for (const { operation } of documented) {
      const indexes = operation["x-codeSamples"].map(({ label }: Shown) => position.get(label));
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    }
  });

  it.each(table)("%s: each curl sample, as shown, answers 200 from the mock the environment names", (operationId) => {
    const curls = (shownOf(operationId)["x-codeSamples"] as Shown[]).filter(({ lang }) => lang === "curl");
    expect(curls.length).toBeGreaterThan(0);
    for (const { label, source } of curls) {
      const env = { ...process.env, ...credentials, [interfaces[api].environment.baseUrl]: mockUrl };
      const run = spawnSync("sh", ["-c", source], { encoding: "utf8", env });
      expect(run.status, `${label}: ${run.stderr}${run.stdout}`).toBe(0);
      expect(JSON.parse(run.stdout)).toBeTypeOf("object");
    }
  });
});

it("labels a named example's samples with its summary", () => {
  const bundle = JSON.parse(readFileSync(new URL("../../generated/openapi/management.json", import.meta.url), "utf8"));
  const update = operationsOf(withCodeSamples(bundle)).find((entry) => entry.operationId === "updatePipeSettings")!;
  expect(update.operation["x-codeSamples"].map(({ label }: Shown) => label)).toContain("curl · Tune a few settings, reset the others to the default");
});

it("sends the request given in place of the examples", () => {
  const bundle = JSON.parse(readFileSync(new URL("../../generated/openapi/alerts.json", import.meta.url), "utf8"));
  const entry = operationsOf(bundle).find((candidate) => candidate.operationId === "getAlert")!;
  const example = exampleRequest(bundle, entry);
  const edited = { path: { id: "0123456789abcdef01234567" }, url: "/api/v2/alerts/0123456789abcdef01234567" };
  for (const [, , , sample] of languages) {
    const source = sample(bundle, entry, { ...example, ...edited });
    expect(source).toContain("0123456789abcdef01234567");
    expect(source).not.toContain(example.path.id);
  }
});
