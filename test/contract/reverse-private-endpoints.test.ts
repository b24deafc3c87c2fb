// Each reverse private endpoint type requires its own fields and refuses the others' (Prism enforces the spec).
import { describe, expect, it } from "vitest";
import { reversePrivateEndpointsPath } from "../support/paths.js";
import { send } from "../support/prism.js";

const complete: Record<string, Record<string, string>> = {
  VPC_ENDPOINT_SERVICE: { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b" },
  VPC_RESOURCE: {
    type: "VPC_RESOURCE",
    vpcResourceConfigurationId: "rcfg-0a1b2c3d4e5f60718",
    vpcResourceShareArn: "arn:aws:ram:eu-west-1:123456789012:resource-share/4f5e6d7c",
  },
  KAFKA_MULTI_VPC: {
    type: "KAFKA_MULTI_VPC",
    kafkaClusterArn: "arn:aws:kafka:eu-west-1:123456789012:cluster/analytics/2c4e6a8b",
    kafkaAuthentication: "SASL_IAM",
  },
};
const typeSpecificFields = ["vpcEndpointServiceName", "vpcResourceConfigurationId", "vpcResourceShareArn", "kafkaClusterArn", "kafkaAuthentication"];

const create = (body: unknown) => send("management", "POST", reversePrivateEndpointsPath, { body });

async function expectRejected(body: unknown) {
  const answer = await create(body);
  expect(answer.status).toBe(400);
  expect(answer.violations).not.toEqual([]);
}

describe.each(Object.entries(complete))("type %s", (type, body) => {
  const ownFields = Object.keys(body).filter((f) => f !== "type");
  const otherFields = typeSpecificFields.filter((f) => !ownFields.includes(f));

  it("is accepted when complete", async () => {
    const answer = await create({ ...body, description: "d".repeat(255) });
    expect(answer.violations).toEqual([]);
    expect(answer.status).toBe(200);
  });

  it.each(ownFields)("is rejected without %s", async (field) => {
    const { [field]: _left, ...rest } = body;
    await expectRejected(rest);
  });

  it.each(ownFields)("is rejected with an empty or null %s", async (field) => {
    await expectRejected({ ...body, [field]: "" });
    await expectRejected({ ...body, [field]: null });
  });

  it.each(otherFields)("accepts %s of another type as null", async (field) => {
    expect((await create({ ...body, [field]: null })).status).toBe(200);
  });

  it.each(otherFields)("rejects a value for %s, which belongs to another type", async (field) => {
    await expectRejected({ ...body, [field]: field === "kafkaAuthentication" ? "SASL_IAM" : "x" });
  });

  it("rejects a 256-character description", async () => {
    await expectRejected({ ...body, description: "d".repeat(256) });
  });

  it("rejects an unknown field", async () => {
    await expectRejected({ ...body, vpcEndpointServiceNme: "typo" });
  });
});

it("rejects a request without type", async () => {
  await expectRejected({ vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b" });
});

it("rejects an unknown type", async () => {
  await expectRejected({ type: "VPC_PEERING", vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b" });
});

it("rejects a kafkaAuthentication outside SASL_IAM and SASL_SCRAM", async () => {
  await expectRejected({ ...complete.KAFKA_MULTI_VPC, kafkaAuthentication: "PLAIN" });
});
