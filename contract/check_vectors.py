#!/usr/bin/env python3
"""Checks every test vector under contract/vectors/ against the OpenAPI bundles, with JSON Schema Draft 2020-12.

An independent implementation of the vectors' verdicts (the package's own tests use Ajv and Hyperjump): Python's
jsonschema, as Debian ships it (python3-jsonschema 4.10) or newer. It shows that the contract means the same
outside JavaScript, read from the OpenAPI bundles and from the standalone schemas of contract/schemas/ alike
(it fails when the two disagree on any vector).

    python3 contract/check_vectors.py             # exit 0 when every vector gets its verdict, 1 otherwise
    python3 contract/check_vectors.py --verdicts  # print the verdict reached for each vector, as JSON

It runs the same from a checkout and from node_modules/ingestion-api/: the bundles are in ../generated/openapi/.
"""
import argparse
import json
import sys
from importlib.metadata import version
from pathlib import Path


def arguments(argv):
    parser = argparse.ArgumentParser(prog="check_vectors.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verdicts", action="store_true", help="print the verdict reached for each vector, as JSON, instead of checking it")
    return parser.parse_args(argv)


if __name__ == "__main__":
    # Read first, so --help (and a mistyped option's usage) answers where jsonschema is missing too.
    OPTIONS = arguments(sys.argv[1:])

try:
    from jsonschema import Draft202012Validator, FormatChecker
except ImportError:
    sys.exit(f"check_vectors.py: {sys.executable} has no jsonschema: apt-get install python3-jsonschema, or pip install jsonschema")

CONTRACT = Path(__file__).resolve().parent
BUNDLES = CONTRACT.parent / "generated" / "openapi"
SCHEMAS = CONTRACT / "schemas"
# The standalone schema file of each vector part: contract/schemas/<api>/<operationId>.<this>.json (a response's
# is response-<declared status>: response-200, response-5XX).
STANDALONE_PART = {"params": "params", "request": "body"}
JSON = "application/json"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# uuid is the one format a verdict may depend on; date-time, int32 and int64 never decide one (Debian's
# jsonschema cannot check date-time, and no jsonschema version checks int32 or int64).
FORMATS = FormatChecker(formats=["uuid"])


def follow(bundle, node):
    """Follows a local reference ("#/components/...") inside the bundle; other values come back unchanged."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        target = bundle
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def declared_status(operation, status):
    """The key of the answer an operation declares for a status: the status itself, or its range ("5XX" for 502)."""
    responses = operation["responses"]
    return str(status) if str(status) in responses else f"{str(status)[0]}XX"


def find_operation(bundle, operation_id):
    """(path item, operation) of the operation with this operationId."""
    for path_item in bundle["paths"].values():
        for method in METHODS:
            if path_item.get(method, {}).get("operationId") == operation_id:
                return path_item, path_item[method]
    raise KeyError(f"no operation {operation_id} in the bundle")


def operation_schema(bundle, operation_id, part, status=200, media_type=JSON):
    """The schema a vector's value is checked against: the parameters as one object, the request body, or the body
    of the declared answer of `status` in `media_type`."""
    path_item, operation = find_operation(bundle, operation_id)
    if part == "params":
        parameters = [follow(bundle, p) for p in path_item.get("parameters", []) + operation.get("parameters", [])]
        return {
            "type": "object",
            "properties": {p["name"]: p["schema"] for p in parameters},
            "required": [p["name"] for p in parameters if p.get("required")],
            "additionalProperties": False,
        }
    if part == "request":
        return follow(bundle, operation["requestBody"])["content"][JSON]["schema"]
    return follow(bundle, operation["responses"][declared_status(operation, status)])["content"][media_type]["schema"]


def validator(bundle, operation_id, part, status, media_type):
    # The bundle's components sit beside the schema, so its "#/components/..." references resolve in any
    # jsonschema version, without a resolver or a registry.
    schema = {**operation_schema(bundle, operation_id, part, status, media_type), "components": bundle["components"]}
    return Draft202012Validator(schema, format_checker=FORMATS)


def standalone_validator(bundle, api, operation_id, part, status, media_type):
    """The validator of the part's standalone schema (contract/schemas/): no OpenAPI document needed. There is
    one for every JSON body; a text answer (a gateway's page) has none, and None comes back."""
    if media_type != JSON:
        return None
    name = STANDALONE_PART.get(part) or f"response-{declared_status(find_operation(bundle, operation_id)[1], status)}"
    schema = json.loads((SCHEMAS / api / f"{operation_id}.{name}.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, format_checker=FORMATS)


def verdicts():
    """(api, vector, verdict reached, first error, standalone verdict) for every vector file, in file order."""
    for api_dir in sorted(p for p in (CONTRACT / "vectors").iterdir() if p.is_dir()):
        bundle = json.loads((BUNDLES / f"{api_dir.name}.json").read_text(encoding="utf-8"))
        validators = {}
        for vector_file in sorted(api_dir.glob("*.json")):
            for vector in json.loads(vector_file.read_text(encoding="utf-8")):
                key = (vector["operation"], vector["part"], vector.get("status", 200), vector.get("mediaType", JSON))
                if key not in validators:
                    validators[key] = (validator(bundle, *key), standalone_validator(bundle, api_dir.name, *key))
                in_bundle, standalone = validators[key]
                error = next(iter(in_bundle.iter_errors(vector["value"])), None)
                reached = "valid" if error is None else "invalid"
                alone = reached if standalone is None else "valid" if standalone.is_valid(vector["value"]) else "invalid"
                yield api_dir.name, vector, reached, error, alone


def main(options):
    results = list(verdicts())
    if not results:
        # An empty or misplaced vectors folder must not look like a pass.
        print("check_vectors: no vectors found next to this script (expected vectors/<api>/<operationId>.json)")
        return 1
    # A standalone schema must say what the bundle says, whatever the vector expects.
    apart = [(api, v, reached, alone) for api, v, reached, _, alone in results if alone != reached]
    for api, v, reached, alone in apart:
        print(f"  {api}/{v['operation']} {v['part']} \"{v['name']}\": the bundle says {reached}, the standalone schema {alone}", file=sys.stderr)
    if apart:
        print(f"check_vectors: {len(apart)} standalone schema verdicts differ from the bundle's", file=sys.stderr)
        return 1
    if options.verdicts:
        print(json.dumps({f"{api}/{v['operation']}/{v['part']}/{v['name']}": reached for api, v, reached, _, _ in results}, indent=1))
        return 0
    wrong = [(api, v, reached, error) for api, v, reached, error, _ in results if reached != v["verdict"]]
    for api, v, reached, error in wrong:
        why = f": {error.message[:200]}" if error else ""
        print(f"  {api}/{v['operation']} {v['part']} \"{v['name']}\": expected {v['verdict']}, got {reached} (rule: {v['rule']}){why}")
    engine = f"jsonschema {version('jsonschema')}, Draft 2020-12"
    if wrong:
        print(f"check_vectors: {len(wrong)} of {len(results)} vectors got the wrong verdict ({engine})")
        return 1
    print(f"check_vectors: all {len(results)} vectors got their verdict, from the bundles and the standalone schemas alike ({engine})")
    return 0


if __name__ == "__main__":
    sys.exit(main(OPTIONS))
