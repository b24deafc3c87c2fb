// The committed bundles and Ajv (JSON Schema 2020-12) validators over them, for the contract tests.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { resolveRef } from "../../src/contract/openapi.js";

export const apis = ["management", "alerts"] as const;
export type Api = (typeof apis)[number];

export const bundles: Record<Api, any> = Object.fromEntries(
  apis.map((api) => [api, JSON.parse(readFileSync(new URL(`../../generated/openapi/${api}.json`, import.meta.url), "utf8"))]),
) as Record<Api, any>;

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

// OpenAPI keywords (discriminator, example) are not JSON Schema: strict mode off so Ajv ignores them.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
for (const api of apis) ajv.addSchema({ $id: `${api}.json`, components: bundles[api].components });

/** Validates a value against an inline schema object of the bundle, resolving its refs within the bundle. */
export function validateAgainst(api: Api, schema: object, value: unknown): { valid: boolean; errors: string } {
  const validate = ajv.compile({ $id: `${api}-inline-${inlineCount++}.json`, ...rebase(api, schema) });
  const valid = validate(value) as boolean;
  return { valid, errors: ajv.errorsText(validate.errors) };
}
let inlineCount = 0;

// Inline schemas refer to `#/components/...` of their bundle; point those refs at the registered bundle.
function rebase(api: Api, schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${api}.json#/`));
}

/** Follows a local `$ref` (`#/components/...`) inside a bundle; returns other values unchanged. */
export function resolve(api: Api, node: any): any {
  return resolveRef(bundles[api], node);
}
