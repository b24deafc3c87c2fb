// The release archive, ingestion-api-contract-<version>.tar.gz: the contract for teams that do not use npm. The
// bundles (3.1, 3.0 twin, dereferenced; JSON and YAML), the standalone schemas, the vectors with check_vectors.py,
// CONTRACT.md, DECISIONS.md, the rendered docs, a README that says how to verify and use it, and a SHA256SUMS.
// Inside its top folder the files keep the checkout's layout (check_vectors.py finds the bundles at
// ../generated/openapi, as in a checkout). The same commit gives the same bytes.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tarGzip } from "./tar.mjs";
import { apis, root } from "./toolchain.mjs";

const jsonFilesIn = (folder) =>
  readdirSync(join(root, folder))
    .filter((name) => name.endsWith(".json"))
    .map((name) => `${folder}/${name}`);

export const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/** The archive's README: what it holds, how to check it is the one published, and how to use it without Node. */
function readme(version) {
  return `# The ingestion-api contract, ${version}

The contract of the ingestion platform's two HTTP JSON interfaces, management (\`/v1\`) and alerting
(\`/api/v2\`), for teams in any language. Nothing here needs Node.

## Check it

The docs publish this archive beside \`ingestion-api-contract-${version}.tar.gz.sha256\`:

    sha256sum -c ingestion-api-contract-${version}.tar.gz.sha256

Inside, \`SHA256SUMS\` covers every other file: \`sha256sum -c SHA256SUMS\` in this folder.

## What it holds

- \`generated/openapi/\`: the OpenAPI 3.1 bundles (\`management.json\`, \`alerts.json\`), their OpenAPI 3.0.3 twins
  (\`*.openapi-3.0.json\`) and dereferenced copies (\`*.dereferenced.json\`), each also as YAML.
- \`contract/schemas/<api>/\`: a standalone JSON Schema (2020-12) of each operation's parameters, body and answers.
- \`contract/vectors/<api>/\`: the shared test vectors, each value with the verdict the contract gives it.
- \`contract/check_vectors.py\`: checks every vector with Python's \`jsonschema\`: \`python3 contract/check_vectors.py\`.
- \`CONTRACT.md\`: how to use all of it from Python, Go or anything else; \`openapi/DECISIONS.md\`: why the contract
  says what it says.
- \`docs/\`: the rendered references, to open in a browser. Their landing page links \`downloads/\`, which the
  docs publish beside it: this archive and the wheel, not in it.

The Python package \`ingestion-api-contract\` (a wheel, in the docs' downloads beside this archive) holds the same
bundles, schemas and vectors, validates by operation id, and checks recorded traffic offline:
\`python3 -m ingestion_api_contract check-traffic recorded.har\`. CONTRACT.md, "Python in an afternoon", starts there.
`;
}

/** The files of the archive, without its top folder: `[{ path, data, mode }]`, in path order, SHA256SUMS last. */
export function contractArchiveFiles({ docsDir, version }) {
  // [path in the checkout, path in the archive]
  const sources = [
    ...apis.flatMap((api) =>
      ["", ".openapi-3.0", ".dereferenced"].flatMap((variant) => ["json", "yaml"].map((extension) => `generated/openapi/${api}${variant}.${extension}`)),
    ),
    ...apis.flatMap((api) => [...jsonFilesIn(`contract/schemas/${api}`), ...jsonFilesIn(`contract/vectors/${api}`)]),
    "contract/check_vectors.py",
    "CONTRACT.md",
    "openapi/DECISIONS.md",
  ].map((path) => [join(root, path), path]);
  for (const page of ["index", ...apis]) sources.push([join(docsDir, `${page}.html`), `docs/${page}.html`]);
  for (const api of apis)
    for (const extension of ["json", "yaml"]) sources.push([join(docsDir, "openapi", `${api}.${extension}`), `docs/openapi/${api}.${extension}`]);

  const missing = sources.filter(([from]) => !existsSync(from)).map(([, path]) => path);
  if (missing.length > 0) throw new Error(`missing ${missing.join(", ")} (npm run build makes them)`);
  // The bundles name their version too; an archive named after another one would misstate what it holds.
  const misversioned = apis.filter((api) => JSON.parse(readFileSync(join(root, "generated", "openapi", `${api}.json`), "utf8")).info.version !== version);
  if (misversioned.length > 0) throw new Error(`the ${misversioned.join(" and ")} bundle's info.version is not package.json's ${version}`);

  const files = [
    ...sources.map(([from, path]) => ({
      path,
      data: readFileSync(from),
      // Executable in git, so `./contract/check_vectors.py` runs unpacked as it does in a checkout.
      mode: path === "contract/check_vectors.py" ? 0o755 : 0o644,
    })),
    { path: "README.md", data: Buffer.from(readme(version)), mode: 0o644 },
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  const sums = files.map(({ path, data }) => `${sha256(data)}  ${path}\n`).join("");
  return [...files, { path: "SHA256SUMS", data: Buffer.from(sums), mode: 0o644 }];
}

/** The archive: its file name and bytes. */
export function contractArchive({ docsDir, version }) {
  const top = `ingestion-api-contract-${version}`;
  const files = contractArchiveFiles({ docsDir, version });
  return { name: `${top}.tar.gz`, files: files.length, data: tarGzip(files.map((file) => ({ ...file, path: `${top}/${file.path}` }))) };
}
