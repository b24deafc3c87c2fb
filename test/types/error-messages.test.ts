// What the compiler says to a user who gives a value to a field of another branch of a request union (a tile's
// `tileId` on a search alert, a Kafka field on a VPC endpoint): the message names the field, the branch it belongs
// to, and that only null is accepted here. Under TypeScript 5.9 (`tsc`) and 7: TypeScript 7.0's own package cannot
// be installed beside 5.9 (both name their command `tsc`), so its native preview (`tsgo`) stands in for it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { spawnAndCollect } from "../support/processes.js";

const prelude = `import { createAlertsClient, createManagementClient, type ReversePrivateEndpointRequest } from "ingestion-api";
const alerts = createAlertsClient({ baseUrl: "https://alerts.example.com", token: "t" });
const management = createManagementClient({ baseUrl: "https://api.example.com", keyId: "id", keySecret: "secret" });
const rule = { threshold: 1, thresholdType: "above", interval: "5m", channel: { type: "webhook", webhookId: "w" } } as const;
const vpc = { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "svc" } as const;
`;

/** One misuse a line, and what the message must say: the field, and the words that name its branch. */
const misuses = [
  {
    name: "a tile's tileId on a search alert",
    code: `void alerts.create({ ...rule, source: "search", savedSearchId: "65f1c2d3e4b5a69788796a10", tileId: "t" });`,
    field: "tileId",
    says: `Type 'string' is not assignable to type 'OnlyNull<"belongs to source: tile">'`,
  },
  {
    name: "a tile's dashboardId on a search alert",
    code: `void alerts.create({ ...rule, source: "search", savedSearchId: "65f1c2d3e4b5a69788796a10", dashboardId: "d" });`,
    field: "dashboardId",
    says: `Type 'string' is not assignable to type 'OnlyNull<"belongs to source: tile">'`,
  },
  {
    name: "a search's savedSearchId on a tile alert",
    code: `void alerts.create({ ...rule, source: "tile", dashboardId: "d", tileId: "t", savedSearchId: "65f1c2d3e4b5a69788796a10" });`,
    field: "savedSearchId",
    says: `Type 'string' is not assignable to type 'OnlyNull<"belongs to source: search">'`,
  },
  {
    name: "a search's groupBy on a tile alert",
    code: `void alerts.create({ ...rule, source: "tile", dashboardId: "d", tileId: "t", groupBy: "host" });`,
    field: "groupBy",
    says: `Type 'string' is not assignable to type 'OnlyNull<"belongs to source: search">'`,
  },
  {
    name: "a Kafka cluster ARN on a VPC endpoint",
    code: `void management.reversePrivateEndpoints.create({ serviceId: "s" }, { ...vpc, kafkaClusterArn: "arn" });`,
    field: "kafkaClusterArn",
    says: `Type 'string' is not assignable to type 'OnlyNull<"belongs to type: KAFKA_MULTI_VPC">'`,
  },
  {
    name: "a Kafka authentication on a VPC endpoint",
    code: `void management.reversePrivateEndpoints.create({ serviceId: "s" }, { ...vpc, kafkaAuthentication: "SASL_IAM" });`,
    field: "kafkaAuthentication",
    says: `Type '"SASL_IAM"' is not assignable to type '(KafkaAuthentication & OnlyNull<"belongs to type: KAFKA_MULTI_VPC">) | null`,
  },
  {
    name: "a Kafka authentication on a VPC resource endpoint, through a variable",
    code: `const resource = { type: "VPC_RESOURCE", vpcResourceConfigurationId: "c", vpcResourceShareArn: "a", kafkaAuthentication: "SASL_SCRAM" } as const; export const body: ReversePrivateEndpointRequest = resource;`,
    field: "kafkaAuthentication",
    says: `Type '"SASL_SCRAM"' is not assignable to type '(KafkaAuthentication & OnlyNull<"belongs to type: KAFKA_MULTI_VPC">) | null`,
  },
  {
    name: "a VPC endpoint's service name on a Kafka endpoint",
    code: `void management.reversePrivateEndpoints.create({ serviceId: "s" }, { type: "KAFKA_MULTI_VPC", kafkaClusterArn: "arn", kafkaAuthentication: "SASL_IAM", vpcEndpointServiceName: "svc" });`,
    field: "vpcEndpointServiceName",
    says: `Type 'string' is not assignable to type 'OnlyNull<"belongs to type: VPC_ENDPOINT_SERVICE">'`,
  },
  {
    name: "null for a Kafka endpoint's own kafkaAuthentication",
    code: `void management.reversePrivateEndpoints.create({ serviceId: "s" }, { type: "KAFKA_MULTI_VPC", kafkaClusterArn: "arn", kafkaAuthentication: null });`,
    field: "kafkaAuthentication",
    says: `Type 'null' is not assignable to type 'OneOf<KafkaAuthentication>'`,
  },
];
const firstLine = prelude.split("\n").length;
const lineOf = (misuse: (typeof misuses)[number]) => firstLine + misuses.indexOf(misuse);

const compilers = [
  { name: "TypeScript 5.9 (tsc)", bin: join(root, "node_modules", "typescript", "bin", "tsc") },
  { name: "TypeScript 7 (tsgo, the native preview)", bin: join(root, "node_modules", ".bin", "tsgo") },
];

// A project of one file under the repository's compiler settings: its tsconfig extends the repository's, whose
// `paths` resolve `ingestion-api` to the sources, and reads the repository's @types as the repository does.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "error-messages-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const compilerOptions = { typeRoots: [join(root, "node_modules", "@types")] };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: join(root, "tsconfig.json"), compilerOptions, include: ["misuse.ts"] }));
  writeFileSync(join(dir, "misuse.ts"), prelude + misuses.map((misuse) => misuse.code).join("\n"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each error the compiler prints (`file(line,col): error TSnnnn: ...` and its indented lines), by line. */
function errorsByLine(printed: string): Map<number, string> {
  const errors = new Map<number, string>();
  let line: number | undefined;
  for (const text of printed.split("\n")) {
    const head = /^misuse\.ts\((\d+),\d+\): error TS\d+: /.exec(text);
    if (head) {
      line = Number(head[1]);
      errors.set(line, `${errors.get(line) ?? ""}${text.slice(head[0].length)}\n`);
    } else if (line !== undefined && text.startsWith(" ")) errors.set(line, `${errors.get(line)}${text.trim()}\n`);
  }
  return errors;
}

describe.each(compilers)("under $name", ({ bin }) => {
  let errors: Map<number, string>;
  beforeAll(async () => {
    const run = await spawnAndCollect(process.execPath, [bin, "-p", dir, "--pretty", "false"], { cwd: dir, timeout: 60_000 });
    errors = errorsByLine(run.stdout);
  }, 60_000);

  it("reports an error on each misuse and on no other line", () => {
    expect([...errors.keys()].sort((a, b) => a - b)).toEqual(misuses.map(lineOf));
  });

  it.each(misuses)("names the field, its branch and only null for $name", (misuse) => {
    const message = errors.get(lineOf(misuse));
    expect(message).toContain(`Types of property '${misuse.field}' are incompatible.`);
    expect(message).toContain(misuse.says);
  });
});
