// The specs' OpenAPI links, which `ingestion-api verify` follows and Schemathesis can chain: the lint rule that
// checks them (scripts/spectral/valid-links.js) passes each, and catches a link to nothing, a parameter the
// target does not have, and an expression that names nothing.
import { describe, expect, it } from "vitest";
import validLinks from "../../scripts/spectral/valid-links.js";
import { bundles } from "../support/bundles.js";

type Bundle = (typeof bundles)["management"];

/** Every link of a bundle, with its Spectral path. */
function linksOf(bundle: Bundle): { path: string[]; link: Record<string, unknown> }[] {
  return Object.entries(
    bundle.paths as Record<string, Record<string, { responses?: Record<string, { links?: Record<string, Record<string, unknown>> }> }>>,
  ).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      Object.entries(operation.responses ?? {}).flatMap(([status, response]) =>
        Object.entries(response.links ?? {}).map(([name, link]) => ({ path: ["paths", path, method, "responses", status, "links", name], link })),
      ),
    ),
  );
}

const problems = (bundle: Bundle, path: string[], link: unknown) => validLinks(link, undefined, { path, document: { data: bundle } });

describe.each(["management", "alerts"] as const)("%s", (api) => {
  const links = linksOf(bundles[api]);

  it("declares the links of its flows, and each passes the rule", () => {
    expect(links.map(({ path }) => `${path[2]} ${path[1]} → ${path[6]}`)).toEqual(
      api === "alerts"
        ? ["post /api/v2/alerts → GetCreatedAlert"]
        : [
            "put /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings → GetPipeSettings",
            "put /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings → GetPipe",
          ],
    );
    for (const { path, link } of links) expect(problems(bundles[api], path, link)).toEqual([]);
  });

  it("refuses a link to nothing, a parameter the target lacks, and an expression that names nothing", () => {
    const { path, link } = links[0] as (typeof links)[number];
    const [name, expression] = Object.entries(link.parameters as Record<string, string>)[0] as [string, string];
    expect(problems(bundles[api], path, { ...link, operationId: "nothing" })).toEqual([
      { message: 'the link names operationId "nothing", which no operation has' },
    ]);
    expect(problems(bundles[api], path, { ...link, parameters: { ...(link.parameters as object), [`${name}x`]: expression } })).toContainEqual({
      message: `${link.operationId} has no parameter ${name}x`,
    });
    const broken = expression.startsWith("$request") ? `${expression}x` : `${expression}/nothing`;
    expect(problems(bundles[api], path, { ...link, parameters: { ...(link.parameters as object), [name]: broken } })).toHaveLength(1);
  });
});
