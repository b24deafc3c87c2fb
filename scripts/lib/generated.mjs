// What `npm run generate` writes under generated/ from openapi/: bundles (JSON and YAML), TypeScript types
// and validators. check-generated.mjs calls it on a temporary folder to compare.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { apis, runTool } from "./toolchain.mjs";
import { generateTypes } from "./types.mjs";
import { generateValidators } from "./validators.mjs";

/** Writes the bundles, types and validators of every API under `outDir` (emptied first). */
export async function generateInto(outDir) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "openapi"), { recursive: true });
  mkdirSync(join(outDir, "types"), { recursive: true });
  mkdirSync(join(outDir, "validators"), { recursive: true });

  for (const api of apis) {
    const bundlePath = join(outDir, "openapi", `${api}.json`);
    const bundled = runTool("redocly", ["bundle", api, "--output", bundlePath], { capture: true });
    if (bundled.status !== 0) throw new Error(`redocly bundle ${api} failed:\n${bundled.stderr}`);

    // Re-serialise so the JSON and YAML bundles come from one parsed document and read the same.
    const bundle = JSON.parse(readFileSync(bundlePath, "utf8"));
    writeFileSync(bundlePath, `${JSON.stringify(bundle, null, 2)}\n`);
    writeFileSync(join(outDir, "openapi", `${api}.yaml`), stringify(bundle, { lineWidth: 0 }));

    writeFileSync(join(outDir, "types", `${api}.ts`), await generateTypes(bundle));

    await generateValidators(bundle, join(outDir, "validators", api));
  }
}
