// Each generator's exact layout, pinned: Prettier's for TypeScript (80 columns), Black's for Python (88), gofmt's for
// Go, and shell quoting for curl. language-samples.test.ts and typescript-samples.test.ts run and type-check the
// samples; these say how they read, which a reader copies, and which a mutation of the layout rules would change.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { operationsOf } from "../../src/contract/openapi.js";
import { curlSample, goSample, pythonSample } from "../../src/samples/http-samples.js";
import { typescriptSample } from "../../src/samples/typescript-sample.js";

const bundles = {
  management: JSON.parse(readFileSync(new URL("../../generated/openapi/management.json", import.meta.url), "utf8")),
  alerts: JSON.parse(readFileSync(new URL("../../generated/openapi/alerts.json", import.meta.url), "utf8")),
};
const generators = { typescriptSample, pythonSample, goSample, curlSample };
const entry = (api: keyof typeof bundles, operationId: string) => operationsOf(bundles[api]).find((candidate) => candidate.operationId === operationId)!;

/** Values a naive literal gets wrong: quotes, a backquote, a backslash, null, booleans, a key that is no identifier, empty ones. */
const awkward = { name: 'it\'s "quoted" `raw` C:\\path', message: null, "x-y": true, flag: false, empty: {}, list: [] };
/** An object and an array each too wide for one line where they stand. */
const wide = {
  channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20", note: "long enough to pass the line" },
  tags: ["first tag of a list", "second tag of a list", "third tag of the list", "and a fourth"],
};

it.each([
  [
    "TypeScript, a body of awkward values on one line each",
    "typescriptSample",
    "alerts",
    "createAlert",
    { body: awkward },
    `import { createAlertsClient } from "ingestion-api";

// Against \`npx ingestion-api sandbox\` as it is; for a real server set INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN.
const alerts = createAlertsClient({
  baseUrl: process.env.INGESTION_ALERTS_URL || "http://127.0.0.1:4012",
  token: process.env.INGESTION_ALERTS_TOKEN || "sandbox-token",
});

const alert = await alerts.create({
  name: "it's \\"quoted\\" \`raw\` C:\\\\path",
  message: null,
  "x-y": true,
  flag: false,
  empty: {},
  list: [],
});
console.log(JSON.stringify(alert, null, 2));
`,
  ],
  [
    "TypeScript, an object and an array too wide for one line",
    "typescriptSample",
    "alerts",
    "createAlert",
    { body: wide },
    `import { createAlertsClient } from "ingestion-api";

// Against \`npx ingestion-api sandbox\` as it is; for a real server set INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN.
const alerts = createAlertsClient({
  baseUrl: process.env.INGESTION_ALERTS_URL || "http://127.0.0.1:4012",
  token: process.env.INGESTION_ALERTS_TOKEN || "sandbox-token",
});

const alert = await alerts.create({
  channel: {
    type: "webhook",
    webhookId: "65f1c2d3e4b5a69788796a20",
    note: "long enough to pass the line",
  },
  tags: [
    "first tag of a list",
    "second tag of a list",
    "third tag of the list",
    "and a fourth",
  ],
});
console.log(JSON.stringify(alert, null, 2));
`,
  ],
  [
    "TypeScript, path parameters and a query",
    "typescriptSample",
    "management",
    "listServices",
    {},
    `import { createManagementClient } from "ingestion-api";

// Against \`npx ingestion-api sandbox\` as it is; for a real server set INGESTION_API_URL, INGESTION_API_KEY_ID and INGESTION_API_KEY_SECRET.
const management = createManagementClient({
  baseUrl: process.env.INGESTION_API_URL || "http://127.0.0.1:4012",
  keyId: process.env.INGESTION_API_KEY_ID || "sandbox-key-id",
  keySecret: process.env.INGESTION_API_KEY_SECRET || "sandbox-key-secret",
});

const services = await management.services.list({
  organizationId: "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b",
  filter: ["tag:Environment=Production"],
});
console.log(JSON.stringify(services, null, 2));
`,
  ],
  [
    "TypeScript, an id as the only argument",
    "typescriptSample",
    "alerts",
    "getAlert",
    {},
    `import { createAlertsClient } from "ingestion-api";

// Against \`npx ingestion-api sandbox\` as it is; for a real server set INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN.
const alerts = createAlertsClient({
  baseUrl: process.env.INGESTION_ALERTS_URL || "http://127.0.0.1:4012",
  token: process.env.INGESTION_ALERTS_TOKEN || "sandbox-token",
});

const alert = await alerts.get("65f1c2d3e4b5a69788796a5b");
console.log(JSON.stringify(alert, null, 2));
`,
  ],
  [
    "Python, a body of awkward values",
    "pythonSample",
    "alerts",
    "createAlert",
    { body: awkward },
    `import json
import os
import urllib.error
import urllib.request

# Against \`npx ingestion-api sandbox\` as it is; for a real server set INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN.
base_url = os.environ.get("INGESTION_ALERTS_URL") or "http://127.0.0.1:4012"
token = os.environ.get("INGESTION_ALERTS_TOKEN") or "sandbox-token"
body = {
    "name": "it's \\"quoted\\" \`raw\` C:\\\\path",
    "message": None,
    "x-y": True,
    "flag": False,
    "empty": {},
    "list": [],
}
request = urllib.request.Request(
    base_url + "/api/v2/alerts",
    method="POST",
    data=json.dumps(body).encode(),
    headers={
        "Authorization": "Bearer " + token,
        "Content-Type": "application/json",
    },
)
try:
    with urllib.request.urlopen(request) as response:
        print(json.dumps(json.load(response), indent=2))
except urllib.error.HTTPError as error:
    raise SystemExit(f"HTTP {error.code} {error.reason}: {error.read().decode()}")
`,
  ],
  [
    "Python, an object and an array too wide for one line, with the sandbox's credentials",
    "pythonSample",
    "alerts",
    "createAlert",
    { body: wide, sandboxCredentials: true },
    `import json
import urllib.error
import urllib.request

token = "sandbox-token"
body = {
    "channel": {
        "type": "webhook",
        "webhookId": "65f1c2d3e4b5a69788796a20",
        "note": "long enough to pass the line",
    },
    "tags": [
        "first tag of a list",
        "second tag of a list",
        "third tag of the list",
        "and a fourth",
    ],
}
request = urllib.request.Request(
    "http://127.0.0.1:4012/api/v2/alerts",
    method="POST",
    data=json.dumps(body).encode(),
    headers={
        "Authorization": "Bearer " + token,
        "Content-Type": "application/json",
    },
)
try:
    with urllib.request.urlopen(request) as response:
        print(json.dumps(json.load(response), indent=2))
except urllib.error.HTTPError as error:
    raise SystemExit(f"HTTP {error.code} {error.reason}: {error.read().decode()}")
`,
  ],
  [
    "Python, HTTP Basic from the environment, no body",
    "pythonSample",
    "management",
    "getPipe",
    {},
    `import base64
import json
import os
import urllib.error
import urllib.request

# Against \`npx ingestion-api sandbox\` as it is; for a real server set INGESTION_API_URL, INGESTION_API_KEY_ID and INGESTION_API_KEY_SECRET.
base_url = os.environ.get("INGESTION_API_URL") or "http://127.0.0.1:4012"
key_id = os.environ.get("INGESTION_API_KEY_ID") or "sandbox-key-id"
key_secret = os.environ.get("INGESTION_API_KEY_SECRET") or "sandbox-key-secret"
credentials = f"{key_id}:{key_secret}"
request = urllib.request.Request(
    base_url + "/v1/organizations/7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b/services/3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70/pipes/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
    method="GET",
    headers={
        "Authorization": "Basic " + base64.b64encode(credentials.encode()).decode(),
    },
)
try:
    with urllib.request.urlopen(request) as response:
        print(json.dumps(json.load(response), indent=2))
except urllib.error.HTTPError as error:
    raise SystemExit(f"HTTP {error.code} {error.reason}: {error.read().decode()}")
`,
  ],
  [
    "Go, a body with a backquote (a quoted string)",
    "goSample",
    "alerts",
    "createAlert",
    { body: awkward },
    `package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	// Against \`npx ingestion-api sandbox\` as it is; for a real server set INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN.
	baseURL := getenv("INGESTION_ALERTS_URL", "http://127.0.0.1:4012")
	body := []byte("{\\"name\\":\\"it's \\\\\\"quoted\\\\\\" \`raw\` C:\\\\\\\\path\\",\\"message\\":null,\\"x-y\\":true,\\"flag\\":false,\\"empty\\":{},\\"list\\":[]}")
	request, err := http.NewRequest(http.MethodPost, baseURL+"/api/v2/alerts", bytes.NewReader(body))
	check(err)
	request.Header.Set("Authorization", "Bearer "+getenv("INGESTION_ALERTS_TOKEN", "sandbox-token"))
	request.Header.Set("Content-Type", "application/json")

	response, err := http.DefaultClient.Do(request)
	check(err)
	defer response.Body.Close()
	answer, err := io.ReadAll(response.Body)
	check(err)
	if response.StatusCode >= 400 {
		fmt.Fprintf(os.Stderr, "HTTP %s: %s\\n", response.Status, answer)
		os.Exit(1)
	}
	var pretty bytes.Buffer
	check(json.Indent(&pretty, answer, "", "  "))
	fmt.Println(pretty.String())
}

// getenv is os.Getenv, or fallback when the variable is unset or empty.
func getenv(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`,
  ],
  [
    "Go, a body laid out in a raw string, with the sandbox's credentials",
    "goSample",
    "management",
    "updatePipeSettings",
    { sandboxCredentials: true, body: { engine_max_threads: 4, nested: { a: [1, 2] } } },
    `package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	body := []byte(\`{
	  "engine_max_threads": 4,
	  "nested": {
	    "a": [
	      1,
	      2
	    ]
	  }
	}\`)
	request, err := http.NewRequest(http.MethodPut, "http://127.0.0.1:4012/v1/organizations/7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b/services/3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70/pipes/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a/settings", bytes.NewReader(body))
	check(err)
	request.SetBasicAuth("sandbox-key-id", "sandbox-key-secret")
	request.Header.Set("Content-Type", "application/json")

	response, err := http.DefaultClient.Do(request)
	check(err)
	defer response.Body.Close()
	answer, err := io.ReadAll(response.Body)
	check(err)
	if response.StatusCode >= 400 {
		fmt.Fprintf(os.Stderr, "HTTP %s: %s\\n", response.Status, answer)
		os.Exit(1)
	}
	var pretty bytes.Buffer
	check(json.Indent(&pretty, answer, "", "  "))
	fmt.Println(pretty.String())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`,
  ],
  [
    "curl, a body with a single quote",
    "curlSample",
    "alerts",
    "createAlert",
    { body: awkward },
    `# Against \`npx ingestion-api sandbox\` as it is; for a real server set INGESTION_ALERTS_URL and INGESTION_ALERTS_TOKEN.
curl -sS --fail-with-body -X POST "\${INGESTION_ALERTS_URL:-http://127.0.0.1:4012}"'/api/v2/alerts' \\
  -H "Authorization: Bearer \${INGESTION_ALERTS_TOKEN:-sandbox-token}" \\
  -H "Content-Type: application/json" \\
  -d '{"name":"it'\\''s \\"quoted\\" \`raw\` C:\\\\path","message":null,"x-y":true,"flag":false,"empty":{},"list":[]}'`,
  ],
  [
    "curl, a GET with HTTP Basic from the environment",
    "curlSample",
    "management",
    "listServices",
    {},
    `# Against \`npx ingestion-api sandbox\` as it is; for a real server set INGESTION_API_URL, INGESTION_API_KEY_ID and INGESTION_API_KEY_SECRET.
curl -sS --fail-with-body "\${INGESTION_API_URL:-http://127.0.0.1:4012}"'/v1/organizations/7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b/services?filter=tag%3AEnvironment%3DProduction' \\
  -u "\${INGESTION_API_KEY_ID:-sandbox-key-id}:\${INGESTION_API_KEY_SECRET:-sandbox-key-secret}"`,
  ],
  [
    "curl, the sandbox's credentials",
    "curlSample",
    "management",
    "updatePipeSettings",
    { sandboxCredentials: true },
    `curl -sS --fail-with-body -X PUT 'http://127.0.0.1:4012/v1/organizations/7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b/services/3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70/pipes/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a/settings' \\
  -u sandbox-key-id:sandbox-key-secret \\
  -H "Content-Type: application/json" \\
  -d '{"streaming_max_insert_wait_ms":5000,"engine_max_insert_threads":4,"engine_parallel_view_processing":true}'`,
  ],
] as const)("%s", (_title, generator, api, operationId, options, expected) => {
  expect(generators[generator](bundles[api], entry(api, operationId), options)).toBe(expected);
});

/** The call a TypeScript sample makes: from the statement after the client to the `console.log`. */
const callOf = (program: string) => program.slice(program.indexOf("\nconst ", program.indexOf("});")) + 1, program.indexOf("\nconsole.log"));

it.each([
  [
    "an object and an array that fit stay on one line each",
    "alerts",
    "createAlert",
    { body: { channel: { type: "webhook", webhookId: "x" }, tags: ["a", "b"] } },
    `const alert = await alerts.create({
  channel: { type: "webhook", webhookId: "x" },
  tags: ["a", "b"],
});`,
  ],
  [
    "a call of exactly 80 columns stays on one line",
    "alerts",
    "createAlert",
    { body: { name: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" } },
    `const alert = await alerts.create({ name: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" });`,
  ],
  [
    "a call of 81 columns breaks",
    "alerts",
    "createAlert",
    { body: { name: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxy" } },
    `const alert = await alerts.create({
  name: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxy",
});`,
  ],
  [
    "a value behind a long name breaks where the name pushes it past 80",
    "alerts",
    "createAlert",
    { body: { a_rather_long_field_name: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20", n: 12345 }, b: 1 } },
    `const alert = await alerts.create({
  a_rather_long_field_name: {
    type: "webhook",
    webhookId: "65f1c2d3e4b5a69788796a20",
    n: 12345,
  },
  b: 1,
});`,
  ],
  [
    "two arguments too wide go one a line; no body given is the example's",
    "management",
    "updatePipeSettings",
    {},
    `const settings = await management.pipes.updateSettings(
  {
    organizationId: "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b",
    serviceId: "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70",
    pipeId: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
  },
  {
    streaming_max_insert_wait_ms: 5000,
    engine_max_insert_threads: 4,
    engine_parallel_view_processing: true,
  },
);`,
  ],
] as const)("TypeScript: %s", (_title, api, operationId, options, expected) => {
  expect(callOf(typescriptSample(bundles[api], entry(api, operationId), options))).toBe(expected);
});

it("refuses to write TypeScript for an operation without an SDK call, or whose call is on the other client", () => {
  const listServices = entry("management", "listServices");
  expect(() => typescriptSample(bundles.management, { ...listServices, operationId: "deleteEverything" })).toThrow(
    "deleteEverything: no SDK call in src/samples/sdk-calls.js",
  );
  // createAlert in a bundle that signs in as the management interface does (HTTP Basic).
  const createAlert = entry("alerts", "createAlert");
  const basic = {
    ...bundles.alerts,
    security: bundles.management.security,
    components: { ...bundles.alerts.components, securitySchemes: bundles.management.components.securitySchemes },
  };
  expect(() => typescriptSample(basic, { ...createAlert, operation: { ...createAlert.operation, security: undefined } })).toThrow(
    "createAlert: its SDK call is on the alerts client",
  );
});

it.each([
  ["curl", "curlSample", ["# Prefer is for the sandbox, which answers as it asks; a real server ignores it.", "  -H 'Prefer: code=429'"]],
  ["Python", "pythonSample", ["        # Prefer is for the sandbox, which answers as it asks; a real server ignores it.", '        "Prefer": "code=429",']],
  ["Go", "goSample", ["\t// Prefer is for the sandbox, which answers as it asks; a real server ignores it.", '\trequest.Header.Set("Prefer", "code=429")']],
  [
    "TypeScript",
    "typescriptSample",
    ["// Prefer is for the sandbox, which answers as it asks; a real server ignores it.", '  { headers: { Prefer: "code=429" } },'],
  ],
] as const)("%s writes a Prefer header it is given, after a comment saying whom it is for, and none otherwise", (_, generator, lines) => {
  const withPrefer = generators[generator](bundles.management, entry("management", "getPipeSettings"), { prefer: "code=429" }).split("\n");
  const [comment, header] = lines;
  expect(withPrefer).toContain(comment);
  expect(withPrefer.indexOf(header)).toBeGreaterThan(withPrefer.indexOf(comment));
  expect(generators[generator](bundles.management, entry("management", "getPipeSettings"))).not.toContain("Prefer");
});

it.each(["curlSample", "pythonSample", "goSample", "typescriptSample"] as const)(
  "%s, for a server of the reader's, asks for their credentials there, and reads its address as the others do",
  (generator) => {
    const written = generators[generator](bundles.management, entry("management", "getPipeSettings"), { baseUrl: "https://api.example.com", yourServer: true });
    expect(written).toContain(
      "Against https://api.example.com: set INGESTION_API_KEY_ID and INGESTION_API_KEY_SECRET to your credentials there (the sandbox's below only stand in for them).",
    );
    expect(written).not.toContain("npx ingestion-api sandbox");
    expect(written).toContain("https://api.example.com");
    // The same server, not the reader's (the sandbox `docs --sandbox` started): the sandbox's comment.
    const sandbox = generators[generator](bundles.management, entry("management", "getPipeSettings"), { baseUrl: "http://127.0.0.1:4999" });
    expect(sandbox).toContain(
      "Against `npx ingestion-api sandbox` as it is; for a real server set INGESTION_API_URL, INGESTION_API_KEY_ID and INGESTION_API_KEY_SECRET.",
    );
  },
);
