// The Python package of the contract, ingestion-api-contract: a pure-Python wheel (py3-none-any) of the package
// contract/python/ingestion_api_contract/ with the bundles (3.1, 3.0 twins, dereferenced; JSON and YAML), the
// standalone schemas and the vectors inside it, and one dependency, jsonschema >= 4.10 (Debian 12's). Written here,
// not by pip or setuptools (PyPI is out of reach, and they date entries by the clock): a wheel is a zip of the
// package and its .dist-info (METADATA, WHEEL, RECORD), and scripts/lib/zip.mjs writes the same bytes each time.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { apis, root } from "./toolchain.mjs";
import { zip } from "./zip.mjs";

export const wheelProject = "ingestion-api-contract";
const importName = "ingestion_api_contract";
const source = join(root, "contract", "python");

/** A RECORD hash: sha256, urlsafe base64 without padding. */
const recordHash = (data) => `sha256=${createHash("sha256").update(data).digest("base64url")}`;

const filesIn = (folder, extension) =>
  readdirSync(folder)
    .filter((name) => name.endsWith(extension))
    .sort();

function metadata(version) {
  const readme = readFileSync(join(source, "README.md"), "utf8");
  return `Metadata-Version: 2.1
Name: ${wheelProject}
Version: ${version}
Summary: The OpenAPI contract of the ingestion platform's management (/v1) and alerting (/api/v2) interfaces: bundles, JSON Schemas, test vectors, validation by operation id, and check-traffic for recorded HAR or JSON Lines.
Requires-Python: >=3.9
Requires-Dist: jsonschema>=4.10
Description-Content-Type: text/markdown

${readme}`;
}

/** The wheel of `version`: its file name, its bytes, and the paths and sizes of what it holds. */
export function contractWheel({ version }) {
  const inPackage = (path) => `${importName}/${path}`;
  const file = (path, ...from) => ({ path: inPackage(path), data: readFileSync(join(...from)) });
  const files = [
    ...filesIn(join(source, importName), ".py").map((name) => file(name, source, importName, name)),
    ...filesIn(join(root, "generated", "openapi"), "").map((name) => file(`openapi/${name}`, root, "generated", "openapi", name)),
    ...apis.flatMap((api) =>
      ["schemas", "vectors"].flatMap((kind) =>
        filesIn(join(root, "contract", kind, api), ".json").map((name) => file(`${kind}/${api}/${name}`, root, "contract", kind, api, name)),
      ),
    ),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  const distInfo = `${importName}-${version}.dist-info`;
  const described = [
    { path: `${distInfo}/METADATA`, text: metadata(version) },
    { path: `${distInfo}/WHEEL`, text: "Wheel-Version: 1.0\nGenerator: ingestion-api (scripts/lib/wheel.mjs)\nRoot-Is-Purelib: true\nTag: py3-none-any\n" },
    { path: `${distInfo}/entry_points.txt`, text: `[console_scripts]\n${wheelProject} = ${importName}.__main__:main\n` },
    { path: `${distInfo}/top_level.txt`, text: `${importName}\n` },
  ].map(({ path, text }) => ({ path, data: Buffer.from(text) }));
  const recorded = [...files, ...described];
  const record = `${recorded.map(({ path, data }) => `${path},${recordHash(data)},${data.length}`).join("\n")}\n${distInfo}/RECORD,,\n`;
  const all = [...recorded, { path: `${distInfo}/RECORD`, data: Buffer.from(record) }];
  return {
    name: `${importName}-${version}-py3-none-any.whl`,
    data: zip(all),
    contents: all.map(({ path, data }) => ({ path, size: data.length })),
  };
}
