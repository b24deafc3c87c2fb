// The code samples of the rendered docs, in the order their tabs show, and the curl ones, generated from each
// operation's examples, work against the mocks. The Python and Go ones run in language-samples.test.ts.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { curlSample, goSample, pythonSample, withCodeSamples } from "../../scripts/lib/code-samples.mjs";
import { operationsOf } from "../../src/contract/openapi.js";

const apis = [
  ["management", inject("managementUrl")],
  ["alerts", inject("alertsUrl")],
] as const;
const credentials = { INGESTION_API_KEY_ID: "sample-key-id", INGESTION_API_KEY_SECRET: "sample-key-secret", INGESTION_ALERTS_TOKEN: "sample-token" };

describe.each(apis)("%s", (api, mockUrl) => {
  const bundle = JSON.parse(readFileSync(new URL(`../../generated/openapi/${api}.json`, import.meta.url), "utf8"));
  const documented = operationsOf(withCodeSamples(bundle));

  it.each(operationsOf(bundle).map((entry) => [entry.operation.operationId as string, entry] as const))(
    "the docs show the TypeScript, curl, Python and Go samples of %s, and the curl one answers 200 from the mock",
    (operationId, entry) => {
      const shown = documented.find((d) => d.operation.operationId === operationId)?.operation["x-codeSamples"];
      expect(shown.map(({ lang, label }: { lang: string; label: string }) => `${lang}: ${label}`)).toEqual([
        "TypeScript: TypeScript SDK",
        "curl: curl",
        "Python: Python",
        "Go: Go",
      ]);
      expect(shown[1].source).toBe(curlSample(bundle, entry));
      expect(shown[2].source).toBe(pythonSample(bundle, entry));
      expect(shown[3].source).toBe(goSample(bundle, entry));
      // The docs show the spec's default server; the test's mock listens elsewhere.
      const command = curlSample(bundle, entry, { baseUrl: mockUrl });
      const run = spawnSync("sh", ["-c", command], { encoding: "utf8", env: { ...process.env, ...credentials } });
      expect(run.status, run.stderr + run.stdout).toBe(0);
      expect(JSON.parse(run.stdout)).toBeTypeOf("object");
    },
  );
});
