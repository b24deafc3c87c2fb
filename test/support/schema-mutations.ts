// Bodies around every boundary of a request schema, derived from the schema itself: start from one of the
// spec's named examples and change a few fields to values at, just inside and just outside what the schema
// allows. Used by the differential fuzzing, so a new field or bound is fuzzed without a test edit.
import fc from "fast-check";
import { resolveRef } from "../../src/contract/openapi.js";

type Schema = Record<string, any>;

/** The object schema that applies to `body`: for a discriminated oneOf, the branch its tag selects. */
function branchOf(bundle: object, schema: Schema, body: Record<string, unknown>): Schema {
  const resolved = resolveRef(bundle, schema);
  if (!resolved.oneOf) return resolved;
  const tag = resolved.discriminator?.propertyName;
  const branch = resolved.oneOf.map((b: Schema) => resolveRef(bundle, b)).find((b: Schema) => b.properties?.[tag]?.const === body[tag]);
  return branch ?? resolveRef(bundle, resolved.oneOf[0]);
}

/** Every property any branch of the schema knows, so a field of another branch gets tried too. */
function allProperties(bundle: object, schema: Schema): Record<string, Schema> {
  const resolved = resolveRef(bundle, schema);
  const branches: Schema[] = resolved.oneOf ? resolved.oneOf.map((b: Schema) => resolveRef(bundle, b)) : [resolved];
  return Object.assign({}, ...branches.map((branch) => branch.properties ?? {}));
}

/** Values at and around the limits of one property's schema, valid and not. */
export function boundaryValues(bundle: object, property: Schema, current: unknown): unknown[] {
  const schema = resolveRef(bundle, property);
  if (schema.oneOf || schema.anyOf) return [...(schema.oneOf ?? schema.anyOf).flatMap((s: Schema) => boundaryValues(bundle, s, current)), undefined];
  const types: string[] = [schema.type ?? []].flat();
  const values: unknown[] = [undefined, current];
  if (schema.const !== undefined) values.push(schema.const, `${schema.const}x`);
  if (schema.enum) values.push(...schema.enum, String(schema.enum[0]).toLowerCase(), String(schema.enum[0]).toUpperCase(), "unknown-value");
  for (const type of types) {
    if (type === "null") values.push(null);
    if (type === "boolean") values.push(true, false, "true", 1);
    if (type === "integer" || type === "number") {
      const { minimum: min = 0, maximum: max = 1_000_000 } = schema;
      values.push(min, max, min - 1, max + 1, min + 0.5, String(min), type === "number" ? -1.5 : true);
    }
    if (type === "string") {
      if (schema.maxLength !== undefined) values.push("s".repeat(schema.maxLength), "s".repeat(schema.maxLength + 1));
      if (schema.minLength !== undefined) values.push("s".repeat(schema.minLength), "s".repeat(Math.max(0, schema.minLength - 1)));
      if (typeof current === "string" && current.length > 0) values.push(current.toUpperCase(), current.slice(1), `${current}!`, ` ${current}`);
      values.push("", 42, null);
    }
    if (type === "object") {
      values.push({}, "object", []);
      // One field inside changed, for objects within the body (an alert's channel).
      if (current && typeof current === "object" && schema.properties) {
        for (const [name, inner] of Object.entries<Schema>(schema.properties)) {
          const value = (current as Record<string, unknown>)[name];
          for (const changed of boundaryValues(bundle, inner, value)) values.push({ ...current, [name]: changed });
        }
      }
    }
    if (type === "array") values.push([], "list", [42]);
  }
  return values;
}

/** Bodies made from `examples` with up to `maxChanges` fields changed to boundary values, or an unknown field added. */
export function mutatedBodies(bundle: object, schema: Schema, examples: Record<string, unknown>[], maxChanges = 2): fc.Arbitrary<unknown> {
  const change = (body: Record<string, unknown>) => {
    const branch = branchOf(bundle, schema, body);
    const properties = { ...allProperties(bundle, schema), ...(branch.properties ?? {}) };
    const names = Object.keys(properties);
    return fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .constantFrom(...names)
          .chain((name) => fc.constantFrom(...boundaryValues(bundle, properties[name]!, body[name])).map((value) => [name, value] as const)),
      },
      // A near-miss of a real name (a typo), or a stranger.
      { weight: 1, arbitrary: fc.constantFrom(...names.map((name) => name.slice(0, -1)), "unknown").map((name) => [name, 1] as const) },
    );
  };
  return fc.constantFrom(...(examples as Record<string, unknown>[])).chain((example) =>
    fc.array(change(example), { maxLength: maxChanges }).map((changes) => {
      const body: Record<string, unknown> = { ...example };
      for (const [name, value] of changes) {
        if (value === undefined) delete body[name];
        else body[name] = value;
      }
      return body;
    }),
  );
}
