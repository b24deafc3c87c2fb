// Time the generated request validators take on the benchmark's settings body and parameters.
import { validators } from "../generated/validators/management.js";
import { organizationId, pipeId, serviceId, settings, settingsTemplate } from "./fixtures.mjs";

const { params, body } = validators[`PUT ${settingsTemplate}`];
const ids = { organizationId, serviceId, pipeId };
if (!body(settings) || !params(ids)) throw new Error("bench: the generated validators reject the benchmark's settings or ids");

function microseconds(validate, value, iterations) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) if (!validate(value)) throw new Error("bench: validation failed mid-run");
  return Number(process.hrtime.bigint() - started) / 1000 / iterations;
}

/** Microseconds per validation of the settings body, and of the path parameters. */
export const validationTasks = (iterations) => [
  { key: "validate settings body", run: async () => microseconds(body, settings, iterations) },
  { key: "validate path parameters", run: async () => microseconds(params, ids, iterations) },
];
