// `npm run check:breaking` flags each breaking change of a bundle and passes each compatible one. Every case
// mutates a copy of the real bundle (the head) and compares it with the unchanged bundle (the base). The cases run
// the gate in this process (`checkBreaking`, what the command runs); "the command" below runs it as npm does.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkBreaking } from "../../scripts/lib/breaking-changes.mjs";
import { type Api, bundles } from "../support/bundles.js";
import { repoRoot as root } from "../support/project-copy.js";

const workDir = mkdtempSync(join(tmpdir(), "ingestion-api-breaking-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

type Bundle = (typeof bundles)[Api];
let runCount = 0;

/** Writes a base bundle and a mutated copy of it (head) to files of their own; returns their paths. */
function filesOf(base: Bundle, mutate: (head: Bundle) => void): [string, string] {
  const head = structuredClone(base);
  mutate(head);
  const dir = join(workDir, `case-${runCount++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "base.json"), JSON.stringify(base));
  writeFileSync(join(dir, "head.json"), JSON.stringify(head));
  return [join(dir, "base.json"), join(dir, "head.json")];
}

/** The gate on a base bundle and a mutated copy of it (head): its exit status and what it prints. */
function gateBetween(base: Bundle, mutate: (head: Bundle) => void): { status: number | null; output: string } {
  const { status, out, err } = checkBreaking(filesOf(base, mutate), { root });
  return { status, output: [...out, ...err].join("\n") };
}

/** The gate on the api's real bundle (base) and a mutated copy. */
const gate = (api: Api, mutate: (head: Bundle) => void) => gateBetween(bundles[api], mutate);

function expectBreaking(api: Api, mutate: (head: Bundle) => void, ...reported: string[]) {
  const { status, output } = gate(api, mutate);
  expect(status, output).toBe(1);
  for (const line of reported) expect(output).toContain(line);
}

function expectCompatible(api: Api, mutate: (head: Bundle) => void) {
  const { status, output } = gate(api, mutate);
  expect(status, output).toBe(0);
  expect(output).toContain("no breaking change");
}

const alertsPath = "/api/v2/alerts";
const alertPath = "/api/v2/alerts/{id}";
const servicesPath = "/v1/organizations/{organizationId}/services";
const settingsPath = "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings";
const queryParameter = (name: string, required: boolean) => ({ name, in: "query", required, description: "A new parameter.", schema: { type: "string" } });

describe("flags as breaking", () => {
  it("a removed operation", () => {
    expectBreaking("alerts", (h) => delete h.paths[alertPath].get, `GET ${alertPath}: operation removed [operation-removed]`);
  });

  it("a removed parameter", () => {
    expectBreaking("management", (h) => (h.paths[servicesPath].get.parameters = []), "query parameter filter: parameter removed [parameter-removed]");
  });

  it("a removed response property", () => {
    expectBreaking(
      "alerts",
      (h) => delete h.components.schemas.Alert.properties.team,
      `GET ${alertPath} response 200 application/json: data.team removed [property-removed]`,
    );
  });

  it("a changed response type", () => {
    expectBreaking(
      "management",
      (h) => (h.components.schemas.Service.properties.numReplicas.type = "string"),
      "result[].numReplicas type number became string [type-changed]",
    );
  });

  it("a changed request type", () => {
    expectBreaking("alerts", (h) => (h.components.schemas.AlertThreshold.type = "string"), "(source=tile).threshold type number became string [type-changed]");
  });

  it("a new required request property", () => {
    expectBreaking(
      "alerts",
      (h) => {
        const tile = h.components.schemas.AlertTileRequest;
        tile.properties.priority = { type: "integer", description: "A new field." };
        tile.required.push("priority");
      },
      "(source=tile).priority is a new required property [property-required]",
    );
  });

  it("an optional request property made required", () => {
    expectBreaking("alerts", (h) => h.components.schemas.AlertSearchRequest.required.push("name"), "(source=search).name made required [property-required]");
  });

  it("a new required parameter", () => {
    expectBreaking(
      "management",
      (h) => h.paths[servicesPath].get.parameters.push(queryParameter("region", true)),
      "query parameter region: new required parameter [parameter-required]",
    );
  });

  it("an optional parameter made required", () => {
    expectBreaking(
      "management",
      (h) => (h.components.parameters.ServiceFilter.required = true),
      "query parameter filter: optional parameter made required [parameter-required]",
    );
  });

  it("a narrowed request maximum and a raised request minimum", () => {
    expectBreaking(
      "management",
      (h) => {
        h.components.schemas.engine_max_threads.maximum = 32;
        h.components.schemas.streaming_max_insert_wait_ms.minimum = 1000;
      },
      `PUT ${settingsPath} request body application/json: engine_max_threads maximum 64 became 32 [bound-narrowed]`,
      "streaming_max_insert_wait_ms minimum 500 became 1000 [bound-narrowed]",
    );
  });

  it("a narrowed request length", () => {
    expectBreaking("alerts", (h) => (h.components.schemas.AlertName.maxLength = 256), "(source=tile).name maxLength 512 became 256 [bound-narrowed]");
  });

  it("a removed request enum value", () => {
    expectBreaking("alerts", (h) => h.components.schemas.AlertInterval.enum.pop(), '(source=tile).interval no longer accepts "1d" [enum-value-removed]');
  });

  it("a removed request oneOf branch (a discriminator value)", () => {
    expectBreaking(
      "management",
      (h) => h.components.schemas.ReversePrivateEndpointRequest.oneOf.splice(1, 1),
      "(body) no longer accepts branch type=VPC_RESOURCE [enum-value-removed]",
    );
  });

  it("a response property that is no longer guaranteed", () => {
    expectBreaking(
      "management",
      (h) => (h.components.schemas.Pipe.required = ["id", "serviceId", "name"]),
      "result.state no longer required [property-no-longer-required]",
    );
  });

  it("a widened response bound, since clients check response bounds too", () => {
    // The source states the bound once; the bundle carries it in the request and the response schema.
    const { status, output } = gate("management", (h) => {
      h.components.schemas.engine_max_threads.maximum = 128;
      h.components.schemas.PipeSettings.properties.engine_max_threads.maximum = 128;
    });
    expect(status, output).toBe(1);
    expect(output).toContain(`GET ${settingsPath} response 200 application/json: result.engine_max_threads maximum 64 became 128 [bound-widened]`);
    expect(output, "widening is fine for requests").not.toContain("request body");
  });

  it.each([
    ["fewer requests in a window", { requests: 5 }, "10 per 10 s per credential became 5 per 10 s per credential"],
    ["a longer window", { windowSeconds: 20 }, "10 per 10 s per credential became 10 per 20 s per credential"],
    ["another scope", { scope: "organization" }, "10 per 10 s per credential became 10 per 10 s per organization"],
  ])("a declared rate limit made stricter: %s", (_, change, detail) => {
    expectBreaking("management", (h) => Object.assign(h["x-rate-limit"], change), `x-rate-limit: ${detail} [rate-limit-tightened]`);
  });

  it("a declared rate limit that is gone", () => {
    expectBreaking("alerts", (h) => delete h["x-rate-limit"], "x-rate-limit: the declared rate limit is gone [rate-limit-tightened]");
  });

  it("nothing it cannot judge: a keyword it does not compare stops it with exit 2", () => {
    const { status, output } = gate("alerts", (h) => (h.components.schemas.AlertName.allOf = [{ minLength: 2 }]));
    expect(status).toBe(2);
    expect(output).toContain("does not compare allOf");
  });
});

describe("passes as compatible", () => {
  it("an identical bundle", () => {
    expectCompatible("management", () => {});
  });

  it("description changes", () => {
    expectCompatible("alerts", (h) => {
      h.info.description = "Reworded.";
      h.paths[alertsPath].post.description = "Reworded.";
      h.components.schemas.Alert.properties.state.description = "Reworded.";
      h.components.schemas.AlertName.description = "Reworded.";
    });
  });

  it("a new optional request property", () => {
    expectCompatible("alerts", (h) => (h.components.schemas.AlertTileRequest.properties.priority = { type: "integer", description: "A new field." }));
  });

  it("a new optional parameter", () => {
    expectCompatible("management", (h) => h.paths[servicesPath].get.parameters.push(queryParameter("region", false)));
  });

  it("a new response property", () => {
    expectCompatible(
      "alerts",
      (h) => (h.components.schemas.Alert.properties.lastFiredAt = { type: "string", format: "date-time", description: "A new field." }),
    );
  });

  it("a widened request bound and length", () => {
    expectCompatible("management", (h) => {
      h.components.schemas.ReversePrivateEndpointDescription.maxLength = 1024;
      delete h.components.schemas.NonEmptyString.minLength;
    });
    expectCompatible("alerts", (h) => (h.components.schemas.AlertName.maxLength = 1024));
  });

  it("a new operation", () => {
    expectCompatible("alerts", (h) => (h.paths[alertPath].delete = { operationId: "deleteAlert", responses: { "204": { description: "Deleted." } } }));
  });

  it("a new value in an open response enum", () => {
    expectCompatible("management", (h) => h.components.schemas.PipeState.anyOf[0].enum.push("Archived"));
    expectCompatible("alerts", (h) => h.components.schemas.AlertState.anyOf[0].enum.push("snoozed"));
  });

  it("a new value in a request enum that responses carry as an open enum", () => {
    expectCompatible("alerts", (h) => h.components.schemas.AlertInterval.enum.push("2h"));
  });

  it("a looser declared rate limit: more requests, or a shorter window", () => {
    expectCompatible("management", (h) => (h["x-rate-limit"].requests = 20));
    expectCompatible("alerts", (h) => (h["x-rate-limit"].windowSeconds = 30));
  });

  it("a renamed path parameter (the URL is the same)", () => {
    expectCompatible("alerts", (h) => {
      h.paths["/api/v2/alerts/{alertId}"] = h.paths[alertPath];
      delete h.paths[alertPath];
      h.components.parameters.AlertId.name = "alertId";
    });
  });
});

describe("with no arguments: the current bundles against the released ones", () => {
  it("passes for the committed bundles", () => {
    const { status, out, err } = checkBreaking([], { root });
    expect(status, [...out, ...err].join("\n")).toBe(0);
  });

  /** The gate in a project whose alerts bundle was released at `from` and is now `head` at `to`. */
  function released(head: Bundle, from: string, to: string): { status: number | null; output: string } {
    const project = join(workDir, `project-${runCount++}`);
    for (const folder of ["openapi/released", "generated/openapi"]) mkdirSync(join(project, folder), { recursive: true });
    const bundle = (folder: string, api: Api) => join(project, folder, `${api}.json`);
    const baseline = JSON.parse(readFileSync(join(root, "openapi/released/alerts.json"), "utf8"));
    writeFileSync(bundle("openapi/released", "alerts"), JSON.stringify({ ...baseline, info: { ...baseline.info, version: from } }));
    writeFileSync(bundle("generated/openapi", "alerts"), JSON.stringify({ ...head, info: { ...head.info, version: to } }));
    for (const folder of ["openapi/released", "generated/openapi"])
      writeFileSync(bundle(folder, "management"), readFileSync(join(root, folder, "management.json")));
    const { status, out, err } = checkBreaking([], { root: project });
    return { status, output: [...out, ...err].join("\n") };
  }

  // A breaking change against the released bundle: a response property that clients may rely on is gone.
  const withoutTeam = structuredClone(JSON.parse(readFileSync(join(root, "openapi/released/alerts.json"), "utf8")));
  delete withoutTeam.components.schemas.Alert.properties.team;

  it.each([
    ["0.2.0", "0.2.1"],
    ["1.0.0", "1.1.0"],
    ["1.2.0", "1.2.1"],
  ])("fails a breaking change from %s to %s: a patch (or, from 1.0, a minor) version", (from, to) => {
    const { status, output } = released(withoutTeam, from, to);
    expect(status, output).toBe(1);
    expect(output).toContain("a breaking change needs a new major version (a new minor one before 1.0)");
    expect(output).toContain("data.team removed");
  });

  it.each([
    ["0.1.0", "0.2.0"],
    ["0.2.3", "1.0.0"],
    ["1.4.0", "2.0.0"],
  ])("passes a breaking change from %s to %s, a new major (or, before 1.0, minor) version, and still lists it", (from, to) => {
    const { status, output } = released(withoutTeam, from, to);
    expect(status, output).toBe(0);
    expect(output).toContain("allowed by the new version");
    expect(output).toContain("data.team removed");
  });
});

describe("oneOf/anyOf details", () => {
  // A response whose data is an open object with a shared property beside a oneOf of two shapes.
  const withSharedProperty = (type: string) => (h: Bundle) => {
    h.components.schemas.AlertResponse.properties.data = {
      type: "object",
      properties: { shared: { type } },
      oneOf: [
        { type: "object", properties: { kind: { const: "a" } } },
        { type: "object", properties: { kind: { const: "b" } } },
      ],
    };
  };

  it("flags a change to a property declared beside the branches, not only inside them", () => {
    const base = structuredClone(bundles.alerts);
    withSharedProperty("string")(base);
    const { status, output } = gateBetween(base, withSharedProperty("integer"));
    expect(status, output).toBe(1);
    expect(output).toContain("data(kind=a).shared type string became integer");
    expect(output).toContain("data(kind=b).shared type string became integer");
  });

  it("passes untagged branches that only changed order", () => {
    const base = structuredClone(bundles.alerts);
    base.components.schemas.Alert.properties.groupBy = { oneOf: [{ type: "string" }, { type: "null" }] };
    const { status, output } = gateBetween(base, (h) => {
      h.components.schemas.Alert.properties.groupBy = { oneOf: [{ type: "null" }, { type: "string" }] };
    });
    expect(status, output).toBe(0);
  });

  it("refuses to judge a schema it cannot compare (exit 2), rather than passing it", () => {
    const { status, output } = gate("alerts", (h) => {
      h.components.schemas.Alert.properties.groupBy = false as never;
    });
    expect(status, output).toBe(2);
    expect(output).toContain("does not compare boolean schemas");
  });
});

describe("the command (scripts/check-breaking.mjs, as npm runs it)", () => {
  const command = (args: string[]) => spawnSync(process.execPath, [join(root, "scripts/check-breaking.mjs"), ...args], { encoding: "utf8" });

  it("with no arguments passes for the committed bundles, and says so on stdout", () => {
    const run = command([]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("check:breaking: no breaking change since the last release: management");
  });

  it("exits 1 on a breaking change and lists it on stdout", () => {
    const run = command(filesOf(bundles.alerts, (h) => delete h.paths[alertPath].get));
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain(`GET ${alertPath}: operation removed [operation-removed]`);
  });

  it("exits 2 with its usage on stderr when given one file", () => {
    const run = command(["base.json"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("usage: npm run check:breaking [-- <base.json> <head.json>]");
  });
});
