// The python3 that has jsonschema, for the checks that run Python: the one on PATH first (say a virtualenv's),
// then Debian's; PYTHON names another. Without one those checks are skipped with a one-line reason, except
// under VECTORS_REQUIRE_PYTHON=1 (CI), where they fail instead.
import { commandThatRuns } from "./system-tools.js";

const candidates = process.env.PYTHON ? [process.env.PYTHON] : ["python3", "/usr/bin/python3"];

export const python3 = commandThatRuns(candidates, ["-c", "import jsonschema"]);
export const pythonMissing = `no ${candidates.join(" or ")} with jsonschema: apt-get install python3-jsonschema (or pip install jsonschema)`;
export const skipPython = python3 === undefined && process.env.VECTORS_REQUIRE_PYTHON !== "1";
if (skipPython) console.warn(`skipping the Python checks: ${pythonMissing}`);
