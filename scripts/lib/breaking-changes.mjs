// The breaking-change gate that `npm run check:breaking` (scripts/check-breaking.mjs) runs, as a function, so the
// tests run its many cases in one process.
//
// Without arguments, each bundle under generated/openapi/ is compared with its last release under openapi/released/
// (`npm run release:spec`); there a breaking change passes only with a new major info.version (a new minor one
// before 1.0, as semver ranges read 0.x), as CONTRACT.md promises.
//
// A request breaks when the server may now reject what an old client sends; a response breaks when the server may
// now send what an old client rejects or does not expect. Response tolerance covers extra properties and values of
// open enums (`anyOf: [{enum}, {type: string}]`) only: clients check response types and bounds.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { operationsOf, resolveRef } from "../../src/contract/openapi.js";
import { apis } from "./toolchain.mjs";

/** Every rule the gate applies, by the name it reports. */
const rules = {
  "operation-removed": "an operation is gone",
  "parameter-removed": "a parameter is gone",
  "parameter-required": "a new required parameter, or an optional one made required",
  "request-body-required": "a new required request body, or an optional one made required",
  "media-type-removed": "a request or response media type is gone",
  "response-removed": "a success (2xx) response is gone",
  "property-removed": "a response property is gone, or a request property of a closed schema",
  "property-required": "a new required request property, or an optional one made required",
  "property-no-longer-required": "a response property is no longer guaranteed",
  "unknown-properties-rejected": "a request schema now rejects properties it did not know",
  "type-changed": "a request type accepts less, or a response type may hold more",
  "enum-value-removed": "a request enum (or a oneOf branch's discriminator value) lost a value",
  "enum-value-added": "a closed response enum (or a response oneOf) gained a value",
  "alternative-removed": "a request oneOf/anyOf lost a branch",
  "alternative-added": "a response oneOf/anyOf gained a branch",
  "bound-narrowed": "a request minimum, maximum, length or item count is tighter",
  "bound-widened": "a response minimum, maximum, length or item count is looser",
  "pattern-changed": "a request pattern is new or different, or a response pattern is gone or different",
  "format-changed": "a request format is new or different, or a response format is gone or different",
  "rate-limit-tightened": "the declared x-rate-limit allows fewer requests in a window, or a longer window, or another scope, or is gone",
};

// Keywords that never change what validates; every other keyword must be one the comparison understands.
const annotations = new Set([
  "description",
  "title",
  "summary",
  "example",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "externalDocs",
  "xml",
  "discriminator",
]);
const understood = new Set(["$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items", "oneOf", "anyOf", "pattern", "format"]);
const lowerBounds = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const upperBounds = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const allTypes = ["null", "boolean", "object", "array", "number", "integer", "string"];

/** The breaking changes of `head` against `base` (two parsed OpenAPI 3.1 bundles): `{rule, where, detail}`. */
function breakingChanges(base, head) {
  const found = [];
  const report = (rule, where, detail) => {
    if (!(rule in rules)) throw new Error(`unknown rule ${rule}`);
    found.push({ rule, where, detail });
  };
  const compare = schemaComparison(base, head, report);
  const headOperations = operations(head);
  compareRateLimits(base["x-rate-limit"], head["x-rate-limit"], report);

  for (const [key, baseOp] of operations(base)) {
    const headOp = headOperations.get(key);
    if (!headOp) {
      report("operation-removed", baseOp.label, "operation removed");
      continue;
    }
    compareParameters(baseOp, headOp, compare, report);
    compareRequestBody(baseOp, headOp, compare, report);
    compareResponses(baseOp, headOp, compare, report);
  }
  return found;
}

/**
 * A client paced to the declared limit would get 429s from a stricter one: fewer requests, a longer window, another
 * scope, or no declared limit at all (a client could no longer know its pace). A looser limit breaks nothing.
 */
function compareRateLimits(base, head, report) {
  if (!base) return;
  if (!head) return report("rate-limit-tightened", "x-rate-limit", "the declared rate limit is gone");
  const described = ({ requests, windowSeconds, scope }) => `${requests} per ${windowSeconds} s per ${scope}`;
  if (head.requests < base.requests || head.windowSeconds > base.windowSeconds || head.scope !== base.scope) {
    report("rate-limit-tightened", "x-rate-limit", `${described(base)} became ${described(head)}`);
  }
}

/** Operations keyed by method and path template, path parameters keyed by position so a rename is no change. */
function operations(doc) {
  const found = new Map();
  for (const { key, path, method, operation, parameters } of operationsOf(doc)) {
    const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const byPosition = new Map(
      parameters.map((parameter) => [
        parameter.in === "path"
          ? `path #${pathParams.indexOf(parameter.name)}`
          : `${parameter.in} ${parameter.in === "header" ? parameter.name.toLowerCase() : parameter.name}`,
        parameter,
      ]),
    );
    found.set(`${method} ${path.replace(/\{[^}]+\}/g, "{}")}`, {
      label: key,
      parameters: byPosition,
      requestBody: operation.requestBody && resolveRef(doc, operation.requestBody),
      responses: Object.fromEntries(Object.entries(operation.responses ?? {}).map(([status, r]) => [status, resolveRef(doc, r)])),
    });
  }
  return found;
}

function compareParameters(baseOp, headOp, compare, report) {
  for (const [key, baseParam] of baseOp.parameters) {
    const headParam = headOp.parameters.get(key);
    const where = `${baseOp.label} ${baseParam.in} parameter ${baseParam.name}`;
    if (!headParam) report("parameter-removed", where, "parameter removed");
    else {
      if (!baseParam.required && headParam.required) report("parameter-required", where, "optional parameter made required");
      if (!baseParam.schema || !headParam.schema)
        throw new Error(`${where}: check:breaking compares parameters declared with \`schema\` only; extend scripts/lib/breaking-changes.mjs`);
      compare("request", baseParam.schema, headParam.schema, where, "");
    }
  }
  for (const [key, headParam] of headOp.parameters) {
    if (!baseOp.parameters.has(key) && headParam.required) {
      report("parameter-required", `${baseOp.label} ${headParam.in} parameter ${headParam.name}`, "new required parameter");
    }
  }
}

function compareRequestBody(baseOp, headOp, compare, report) {
  const [baseBody, headBody] = [baseOp.requestBody, headOp.requestBody];
  const where = `${baseOp.label} request body`;
  if (headBody?.required && !baseBody?.required) {
    report("request-body-required", where, baseBody ? "optional request body made required" : "new required request body");
  }
  if (baseBody && headBody) compareContent("request", baseBody.content, headBody.content, where, compare, report);
}

function compareResponses(baseOp, headOp, compare, report) {
  for (const [status, baseResponse] of Object.entries(baseOp.responses)) {
    const headResponse = headOp.responses[status];
    const where = `${baseOp.label} response ${status}`;
    if (!headResponse) {
      if (status.startsWith("2")) report("response-removed", where, "success response removed");
    } else compareContent("response", baseResponse.content, headResponse.content, where, compare, report);
  }
}

function compareContent(direction, baseContent = {}, headContent = {}, where, compare, report) {
  for (const [mediaType, baseMedia] of Object.entries(baseContent)) {
    const headMedia = headContent[mediaType];
    if (!headMedia) report("media-type-removed", where, `${mediaType} removed`);
    else compare(direction, baseMedia.schema ?? {}, headMedia.schema ?? {}, `${where} ${mediaType}`, "");
  }
}

/** Compares two schemas as a request (head must accept all base accepted) or a response (head must send nothing base forbade). */
function schemaComparison(baseDoc, headDoc, report) {
  const inProgress = new Set(); // pairs of $refs being compared, so recursive schemas end

  function compare(direction, baseSchema, headSchema, where, at) {
    const pair = baseSchema.$ref && headSchema.$ref && `${direction} ${baseSchema.$ref} ${headSchema.$ref}`;
    if (pair && inProgress.has(pair)) return;
    if (pair) inProgress.add(pair);
    const baseAlternatives = alternatives(baseDoc, resolveRef(baseDoc, baseSchema), `${where} ${at}`);
    const headAlternatives = alternatives(headDoc, resolveRef(headDoc, headSchema), `${where} ${at}`);
    if (baseAlternatives.length === 1 && headAlternatives.length === 1) {
      compareOne(direction, baseAlternatives[0], headAlternatives[0], where, at);
    } else {
      compareAlternatives(direction, baseAlternatives, headAlternatives, where, at);
    }
    if (pair) inProgress.delete(pair);
  }

  function compareAlternatives(direction, baseAlternatives, headAlternatives, where, at) {
    const baseByKey = new Map(alternativeKeys(baseDoc, baseAlternatives).map((key, i) => [key, baseAlternatives[i]]));
    const headByKey = new Map(alternativeKeys(headDoc, headAlternatives).map((key, i) => [key, headAlternatives[i]]));
    for (const [key, baseBranch] of baseByKey) {
      const headBranch = headByKey.get(key);
      if (headBranch) compare(direction, baseBranch, headBranch, where, `${at}(${key})`);
      else if (direction === "request")
        report(key.includes("=") ? "enum-value-removed" : "alternative-removed", where, `${at || "(body)"} no longer accepts branch ${key}`);
    }
    for (const key of headByKey.keys()) {
      if (!baseByKey.has(key) && direction === "response")
        report(key.includes("=") ? "enum-value-added" : "alternative-added", where, `${at || "(body)"} may now be branch ${key}`);
    }
  }

  function compareOne(direction, base, head, where, at) {
    const here = at || "(body)";
    const isRequest = direction === "request";
    const [baseTypes, headTypes] = [typesOf(base), typesOf(head)];
    const [narrower, wider] = isRequest ? [headTypes, baseTypes] : [baseTypes, headTypes];
    if (wider.some((t) => !accepts(narrower, t))) {
      report("type-changed", where, `${here} type ${baseTypes.join("|")} became ${headTypes.join("|")}`);
      return;
    }

    const [baseValues, headValues] = [valuesOf(base), valuesOf(head)];
    if (isRequest && headValues) {
      if (!baseValues) report("enum-value-removed", where, `${here} now accepts only ${headValues.map(show).join(", ")}`);
      for (const value of baseValues?.filter((v) => !includesValue(headValues, v)) ?? [])
        report("enum-value-removed", where, `${here} no longer accepts ${show(value)}`);
    }
    if (!isRequest && baseValues) {
      if (!headValues) report("enum-value-added", where, `${here} is no longer limited to ${baseValues.map(show).join(", ")}`);
      for (const value of headValues?.filter((v) => !includesValue(baseValues, v)) ?? [])
        report("enum-value-added", where, `${here} may now be ${show(value)}`);
    }

    // A request bound breaks when it is new or tighter; a response bound when it is gone or looser.
    for (const [keywords, tighter] of [
      [lowerBounds, (b, h) => h > b],
      [upperBounds, (b, h) => h < b],
    ]) {
      for (const keyword of keywords) {
        const [b, h] = [base[keyword], head[keyword]];
        if (isRequest && h !== undefined && (b === undefined || tighter(b, h)))
          report("bound-narrowed", where, `${here} ${keyword} ${b ?? "(none)"} became ${h}`);
        if (!isRequest && b !== undefined && (h === undefined || tighter(h, b)))
          report("bound-widened", where, `${here} ${keyword} ${b} became ${h ?? "(none)"}`);
      }
    }
    for (const keyword of ["pattern", "format"]) {
      const [b, h] = [base[keyword], head[keyword]];
      if (b !== h && (isRequest ? h !== undefined : b !== undefined))
        report(`${keyword}-changed`, where, `${here} ${keyword} ${b ?? "(none)"} became ${h ?? "(none)"}`);
    }

    compareProperties(direction, base, head, where, at);
    if (base.items || head.items) compare(direction, base.items ?? {}, head.items ?? {}, where, `${at}[]`);
  }

  function compareProperties(direction, base, head, where, at) {
    const isRequest = direction === "request";
    const [baseProps, headProps] = [base.properties ?? {}, head.properties ?? {}];
    const [baseRequired, headRequired] = [new Set(base.required), new Set(head.required)];
    const name = (property) => (at ? `${at}.${property}` : property);
    for (const [property, baseProp] of Object.entries(baseProps)) {
      if (!(property in headProps)) {
        if (!isRequest || head.additionalProperties === false) report("property-removed", where, `${name(property)} removed`);
      } else compare(direction, baseProp, headProps[property], where, name(property));
    }
    for (const property of headRequired) {
      if (isRequest && !baseRequired.has(property)) {
        report("property-required", where, `${name(property)} ${property in baseProps ? "made required" : "is a new required property"}`);
      }
    }
    for (const property of baseRequired) {
      if (!isRequest && !headRequired.has(property) && property in headProps)
        report("property-no-longer-required", where, `${name(property)} no longer required`);
    }
    if (isRequest && base.additionalProperties !== false && head.additionalProperties === false) {
      report("unknown-properties-rejected", where, `${at || "(body)"} now rejects unknown properties`);
    }
  }

  return compare;
}

/**
 * The branches of a oneOf/anyOf, each with the parent's own keywords, or the schema itself. An open enum is one
 * branch: a branch that accepts every value of its types makes enum-only branches of those types redundant.
 */
function alternatives(doc, schema, where) {
  assertUnderstood(schema, where);
  const branches = schema.oneOf ?? schema.anyOf;
  if (!branches) return [schema];
  const { oneOf, anyOf, ...own } = schema;
  const all = branches.flatMap((branch) => alternatives(doc, withParent(own, resolveRef(doc, branch), where), where));
  const open = all.filter(isUnconstrained);
  return all.filter((s) => !(valuesOf(s) && !s.properties && open.some((o) => typesOf(s).every((t) => accepts(typesOf(o), t)))));
}

/**
 * A branch with its parent's own keywords applied: both levels' `properties` and `required` hold, so they are
 * merged, not overwritten. A property constrained at both levels is not compared (it would need an intersection).
 */
function withParent(own, branch, where) {
  const merged = { ...own, ...branch };
  if (own.properties && branch.properties) {
    const both = Object.keys(own.properties).filter((property) => property in branch.properties);
    if (both.length > 0) throw new Error(`${where}: check:breaking does not compare ${both.join(", ")}, constrained both beside and inside oneOf/anyOf`);
    merged.properties = { ...own.properties, ...branch.properties };
  }
  if (own.required && branch.required) merged.required = [...new Set([...own.required, ...branch.required])];
  return merged;
}

/**
 * The branches' names: a discriminating `const` property (`type=VPC_RESOURCE`); else the types a branch admits,
 * when no other branch admits the same (so reordering `[string, null]` branches is no change); else its position.
 */
function alternativeKeys(doc, branches) {
  const tag = (schema) => {
    for (const [property, sub] of Object.entries(schema.properties ?? {})) {
      const resolved = resolveRef(doc, sub);
      if (resolved.const !== undefined) return `${property}=${resolved.const}`;
    }
    return undefined;
  };
  const typeKeys = branches.map((schema) => `types:${[...typesOf(schema)].sort().join("|")}`);
  return branches.map(
    (schema, index) => tag(schema) ?? (typeKeys.indexOf(typeKeys[index]) === typeKeys.lastIndexOf(typeKeys[index]) ? typeKeys[index] : `#${index}`),
  );
}

function assertUnderstood(schema, where) {
  if (typeof schema === "boolean") throw new Error(`${where}: check:breaking does not compare boolean schemas; extend scripts/lib/breaking-changes.mjs`);
  const unknown = Object.keys(schema).filter(
    (k) => !k.startsWith("x-") && !annotations.has(k) && !understood.has(k) && !lowerBounds.includes(k) && !upperBounds.includes(k),
  );
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== "boolean") unknown.push("additionalProperties (a schema)");
  if (unknown.length > 0) throw new Error(`${where}: check:breaking does not compare ${unknown.join(", ")}; extend scripts/lib/breaking-changes.mjs`);
}

function isUnconstrained(schema) {
  return schema.type !== undefined && Object.keys(schema).every((k) => k === "type" || k.startsWith("x-") || annotations.has(k));
}

/** The JSON types a schema admits (from `type`, else from its `const`/`enum` values, else all). */
function typesOf(schema) {
  if (schema.type !== undefined) return [schema.type].flat();
  const values = valuesOf(schema);
  return values ? [...new Set(values.map(jsonType))] : allTypes;
}

const valuesOf = (schema) => (schema.const !== undefined ? [schema.const] : schema.enum);
const accepts = (types, type) => types.includes(type) || (type === "integer" && types.includes("number"));
const includesValue = (values, value) => values.some((v) => JSON.stringify(v) === JSON.stringify(value));
const show = (value) => JSON.stringify(value);

function jsonType(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

/** Follows internal `#/...` references; sibling keywords of a `$ref` apply on top of its target. */
const listed = (changes) => changes.map(({ rule, where, detail }) => `  ${where}: ${detail} [${rule}]`);

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
/**
 * Whether `to` may break clients of `from`: a new major version, or before 1.0 a new minor one, as semver's
 * ranges read 0.x (`^0.1.0` accepts 0.1.5 but not 0.2.0) and so as every consumer's lockfile does.
 */
function breaksAllowed(from, to) {
  const [fromMajor, fromMinor] = String(from).split(".").map(Number);
  const [toMajor, toMinor] = String(to).split(".").map(Number);
  if (toMajor !== fromMajor) return toMajor > fromMajor;
  return toMajor === 0 && toMinor > fromMinor;
}

function compareFiles(baseFile, headFile, out) {
  const changes = breakingChanges(readJson(baseFile), readJson(headFile));
  if (changes.length === 0) {
    out.push(`check:breaking: no breaking change in ${headFile} against ${baseFile}`);
    return 0;
  }
  out.push(`check:breaking: ${changes.length} breaking change(s) in ${headFile} against ${baseFile}:`, ...listed(changes));
  return 1;
}

function compareWithReleased(root, out) {
  let failed = false;
  const summary = [];
  for (const api of apis) {
    const released = readJson(join(root, "openapi", "released", `${api}.json`));
    const current = readJson(join(root, "generated", "openapi", `${api}.json`));
    const changes = breakingChanges(released, current);
    const [from, to] = [released.info.version, current.info.version];
    if (changes.length === 0) {
      summary.push(`${api} ${to} (released ${from})`);
      continue;
    }
    const allowed = breaksAllowed(from, to);
    const verdict = allowed ? ", allowed by the new version" : "; a breaking change needs a new major version (a new minor one before 1.0)";
    out.push(`check:breaking: ${api} ${to} has ${changes.length} breaking change(s) since the released ${from}${verdict}:`, ...listed(changes));
    failed ||= !allowed;
  }
  if (summary.length > 0) out.push(`check:breaking: no breaking change since the last release: ${summary.join(", ")}`);
  return failed ? 1 : 0;
}

/**
 * The gate as `npm run check:breaking [-- <base.json> <head.json>]` runs it, with the project at `root`: its exit
 * status (0 no breaking change or all allowed, 1 a breaking change, 2 it could not decide) and the lines it prints.
 * @param {string[]} files
 * @param {{ root: string }} project
 * @returns {{ status: 0 | 1 | 2, out: string[], err: string[] }}
 */
export function checkBreaking(files, { root }) {
  const out = [];
  if (files.length !== 0 && files.length !== 2) return { status: 2, out, err: ["usage: npm run check:breaking [-- <base.json> <head.json>]"] };
  try {
    return { status: files.length === 2 ? compareFiles(files[0], files[1], out) : compareWithReleased(root, out), out, err: [] };
  } catch (error) {
    // Exit 2, not 1: the gate could not decide, which is not the same as finding a breaking change.
    return { status: 2, out, err: [`check:breaking: ${error.message}`] };
  }
}
