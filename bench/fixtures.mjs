// The identifiers and the settings body every contender sends and expects back: the management spec's own
// examples for getPipeSettings and updatePipeSettings.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../scripts/lib/toolchain.mjs";
import { exampleRequest, exampleResponse, operationsOf } from "../src/contract/openapi.js";

const bundle = JSON.parse(readFileSync(join(root, "generated", "openapi", "management.json"), "utf8"));
const byId = (operationId) => operationsOf(bundle).find((entry) => entry.operationId === operationId);
const read = byId("getPipeSettings");
const update = byId("updatePipeSettings");

export const { organizationId, serviceId, pipeId } = exampleRequest(bundle, read).path;
export const settingsTemplate = read.path;
export const settingsPath = exampleRequest(bundle, read).url;
export const { requestId } = exampleResponse(bundle, read);
/** The settings body the PUT example sends. */
export const settings = exampleRequest(bundle, update).body;
