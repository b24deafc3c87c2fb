"""The contract's two OpenAPI 3.1 bundles, as the package ships them, and the checks of one operation's request and
response: parameters, bodies, status, media type and headers, by operation id.

A schema is checked with the bundle's `components` placed beside it, so its "#/components/..." references resolve
in any jsonschema version, without a resolver or a registry (as contract/check_vectors.py does). Validators are
made on first use, once per operation and part.
"""
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple
from urllib.parse import unquote

from .formats import FORMATS, Validator, is_finite, javascript_int
from .wording import pointer, problems_of, types

HERE = Path(__file__).parent
APIS = ("management", "alerts")
# The methods a path item may hold, in the order OpenAPI lists them (and the bundles' operations come in).
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
JSON = "application/json"
# A header declared as a number is read as one when its whole text is a JSON number.
JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?", re.A)


class NotGiven:
    """The default of an argument left out, so that None can stand for JSON null."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = NotGiven()


@dataclass(frozen=True)
class Operation:
    api: str
    operation_id: str
    method: str
    template: str


@dataclass(frozen=True)
class Problem:
    """What is wrong: in which part of the exchange, where in it, and the rule it breaks."""

    part: str
    where: str
    rule: str


@dataclass(frozen=True)
class Declared:
    """What the checks read of one operation in its bundle."""

    operation: Operation
    spec: Dict[str, Any]
    # Resolved; an operation's own parameter replaces the path item's of the same name and location.
    parameters: Tuple[Dict[str, Any], ...]
    # The template as a regex: each {name} one non-empty segment.
    matcher: "re.Pattern[str]"


@lru_cache(maxsize=None)
def bundle(api: str) -> Dict[str, Any]:
    """The parsed OpenAPI 3.1 bundle of an interface, "management" or "alerts" (shared: do not change it)."""
    if api not in APIS:
        raise ValueError(f"no interface {api!r}; the contract has {', '.join(APIS)}")
    return json.loads((HERE / "openapi" / f"{api}.json").read_text(encoding="utf-8"))


def version() -> str:
    """The package's version: both bundles carry it as info.version."""
    return bundle("management")["info"]["version"]


def follow(api: str, node: Any) -> Any:
    """Follows a local reference ("#/components/...") inside the bundle; other values come back unchanged."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        target: Any = bundle(api)
        for part in node["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def template_regex(template: str) -> "re.Pattern[str]":
    pieces = re.split(r"\{[^}]+\}", template)
    return re.compile("([^/]+)".join(re.escape(piece) for piece in pieces))


@lru_cache(maxsize=None)
def declared() -> Dict[str, Declared]:
    """Every operation of both bundles by operation id, in bundle order."""
    found: Dict[str, Declared] = {}
    for api in APIS:
        for template, item in bundle(api)["paths"].items():
            item = follow(api, item)
            for method in METHODS:
                if method not in item:
                    continue
                spec = item[method]
                parameters = {}
                for parameter in item.get("parameters", []) + spec.get("parameters", []):
                    parameter = follow(api, parameter)
                    parameters[(parameter["in"], parameter["name"])] = parameter
                operation = Operation(api, spec["operationId"], method.upper(), template)
                found[operation.operation_id] = Declared(operation, spec, tuple(parameters.values()), template_regex(template))
    return found


def operations() -> List[Operation]:
    """Every operation of the contract: management's, then alerts', each in its bundle's order."""
    return [entry.operation for entry in declared().values()]


def lookup(operation_id: str) -> Declared:
    entry = declared().get(operation_id)
    if entry is None:
        raise ValueError(f"{operation_id!r} is no operation of the contract ({', '.join(declared())})")
    return entry


# What path_and_query removes: a scheme ("http:") at the start, then, after "//", the authority up to the path.
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
AUTHORITY = re.compile(r"^[^/?#]*")


def path_and_query(url: str) -> Tuple[str, str]:
    """(path, query) of a recorded URL, absolute or a path, as recorded: not percent-decoded, no ".." resolved.
    The port of pathAndQuery (src/traffic/recording.ts), so that both commands read every URL alike; not urlsplit,
    which raises on some URLs ("http://[bad/...": Invalid IPv6 URL) and so stopped the whole check."""
    start = 0
    # Leading control characters and spaces go (JavaScript's charCodeAt(start) <= 0x20 is the same test of one
    # leading character), then every tab and line break, then a scheme.
    while start < len(url) and ord(url[start]) <= 0x20:
        start += 1
    rest = SCHEME.sub("", url[start:].replace("\t", "").replace("\r", "").replace("\n", ""), count=1)
    if rest.startswith("//"):
        rest = AUTHORITY.sub("", rest[2:], count=1)
    before_fragment = rest.split("#", 1)[0]
    path, _, query = before_fragment.partition("?")
    return path, query


def operations_at(url: str) -> List[Tuple[Operation, Dict[str, str]]]:
    """The operations whose path template the URL's path matches, whatever their method, each with its path
    parameters percent-decoded."""
    path = path_and_query(url)[0]
    matches = []
    for entry in declared().values():
        match = entry.matcher.fullmatch(path)
        if match:
            names = re.findall(r"\{([^}]+)\}", entry.operation.template)
            matches.append((entry.operation, {name: unquote(value) for name, value in zip(names, match.groups())}))
    return matches


def find_operation(method: str, url: str) -> Optional[Tuple[Operation, Dict[str, str]]]:
    """The operation a request calls (its method, case-insensitive, and the path of `url`, absolute or a path with
    a query) with its path parameters percent-decoded; None when the contract has no such operation."""
    return next(((operation, params) for operation, params in operations_at(url) if operation.method == method.upper()), None)


@lru_cache(maxsize=None)
def validator(operation_id: str, part: str, answer: str = "", name: str = "") -> Any:
    """The validator of one part of an operation: "params", "request body", or of the answer declared under
    `answer`, "response body" in media type `name` or "response headers" for header `name`."""
    entry = lookup(operation_id)
    api = entry.operation.api
    if part == "params":
        schema = {
            "type": "object",
            "properties": {parameter["name"]: parameter["schema"] for parameter in entry.parameters},
            "required": [parameter["name"] for parameter in entry.parameters if parameter.get("required")],
            "additionalProperties": False,
        }
    elif part == "request body":
        schema = follow(api, entry.spec["requestBody"])["content"][JSON]["schema"]
    elif part == "response body":
        schema = declared_answer(operation_id, answer)["content"][name]["schema"]
    else:
        schema = follow(api, declared_answer(operation_id, answer)["headers"][name])["schema"]
    return Validator({**schema, "components": bundle(api)["components"]}, format_checker=FORMATS)


def schema_problems(check: Any, value: Any, unknown: str) -> List[Tuple[Tuple[Any, ...], str]]:
    """(path, rule) of each problem of a value against a validator, or one problem of the whole value when it is
    nested too deeply to check. jsonschema recurses through the value and writes it into its messages with repr,
    which recurses once per level: both stop at Python's recursion limit (about 1000 frames in all), so a value
    that json.loads just managed to read (a few levels short of it) can still raise RecursionError here, when the
    schema descends into it. Node's Ajv checks such a value; here it is reported, not a crash."""
    try:
        return problems_of(check.iter_errors(value), unknown)
    except RecursionError:
        return [((), "is nested too deeply to check")]


def check_request(operation_id: str, params: Any = NOT_GIVEN, body: Any = NOT_GIVEN) -> List[Problem]:
    """The problems of a request's parameters (one object of all of them by name, path and query: undeclared ones
    are problems too) and of its JSON body (the parsed value); only the parts given are checked."""
    entry = lookup(operation_id)
    found = []
    if params is not NOT_GIVEN:
        path_names = {parameter["name"] for parameter in entry.parameters if parameter["in"] == "path"}
        for path, rule in schema_problems(validator(operation_id, "params"), params, "is not a parameter of this operation"):
            # A parameter is named by itself; a problem inside its value (an array's item) says where in it.
            name = str(path[0]) if path else ""
            found.append(Problem("path" if name in path_names else "query", name, f"{pointer(path[1:])} {rule}".lstrip(" ")))
    if body is not NOT_GIVEN:
        if "requestBody" not in entry.spec:
            raise ValueError(f"{operation_id} declares no request body")
        problems = schema_problems(validator(operation_id, "request body"), body, "is not a field of this request")
        found += [Problem("request body", pointer(path), rule) for path, rule in problems]
    return found


def check_response(operation_id: str, status: int, body: Any, media_type: Optional[str] = JSON,
                   headers: Optional[Mapping[str, Any]] = None) -> List[Problem]:
    """The problems of a response: its status, its media type (a Content-Type, parameters allowed; None for none),
    its body (for application/json, the parsed value; other media types are not checked beyond their name) and,
    when given, its headers by name (text as sent, or values already read)."""
    return response_problems(operation_id, status, media_type, body is None or body == "", lambda: body, headers)


def query_parameters(operation_id: str) -> Dict[str, bool]:
    """The query parameters an operation declares, each with whether it takes a list (its schema's type is array)."""
    entry = lookup(operation_id)
    return {
        parameter["name"]: "array" in types_of(follow(entry.operation.api, parameter["schema"]))
        for parameter in entry.parameters
        if parameter["in"] == "query"
    }


def auth_scheme(operation_id: str) -> str:
    """The HTTP authentication scheme an operation takes, as written in an Authorization header: Basic, Bearer."""
    entry = lookup(operation_id)
    document = bundle(entry.operation.api)
    requirement = entry.spec.get("security", document.get("security"))[0]
    return document["components"]["securitySchemes"][next(iter(requirement))]["scheme"].capitalize()


def request_media_types(operation_id: str) -> Optional[List[str]]:
    """The media types an operation's request body may come in; None when it declares no request body."""
    entry = lookup(operation_id)
    if "requestBody" not in entry.spec:
        return None
    return list(follow(entry.operation.api, entry.spec["requestBody"])["content"])


def answer_key(operation_id: str, status: int) -> Optional[str]:
    """The key an operation declares the answer of a status under: the status itself, else its range ("5XX" for
    503), else "default"; None when none covers it."""
    responses = lookup(operation_id).spec["responses"]
    return next((key for key in (str(status), f"{str(status)[0]}XX", "default") if key in responses), None)


def declared_answer(operation_id: str, key: str) -> Dict[str, Any]:
    entry = lookup(operation_id)
    return follow(entry.operation.api, entry.spec["responses"][key])


def media_type_of(content_type: Optional[str]) -> Optional[str]:
    """The media type of a Content-Type: before any parameter, trimmed of spaces and tabs (HTTP's whitespace; not
    str.strip(), which also takes characters JavaScript keeps), in lower case; None for none (or an empty one)."""
    return None if content_type is None else content_type.split(";", 1)[0].strip(" \t").lower() or None


def response_problems(operation_id: str, status: int, content_type: Optional[str], empty: bool,
                      read_json: Callable[[], Any], headers: Optional[Mapping[str, Any]], recorded: bool = True) -> List[Problem]:
    """The checks of a response, shared by check_response and the traffic checker: `empty` tells whether a body
    came, `read_json` gives the JSON body (ValueError when it is not JSON), called only when it is to be checked.
    `recorded` False: a body came but was not kept (a HAR's content.size without text); the status, media type and
    headers are checked, the body is not."""
    key = answer_key(operation_id, status)
    if key is None:
        return [Problem("response status", "", f"{status} is not an answer {operation_id} declares")]
    declared_types = list(declared_answer(operation_id, key).get("content", {}))
    found = []
    seen = media_type_of(content_type)
    if declared_types and seen not in declared_types:
        listed = ", ".join(declared_types)
        if seen is None:
            what = "no body" if empty and recorded else "no Content-Type"
            found.append(Problem("response media type", "", f"{what} where {key} declares {listed}"))
        else:
            found.append(Problem("response media type", "", f"{seen} is not a media type {key} declares ({listed})"))
    elif not recorded:
        pass  # A body came but was not kept: nothing of it to check, not even a 204's "declares none".
    elif declared_types and seen == JSON:
        try:
            value = read_json()
        except ValueError:
            found.append(Problem("response body", "", "is not JSON"))
        else:
            problems = schema_problems(validator(operation_id, "response body", key, JSON), value, "is not a declared field")
            found += [Problem("response body", pointer(path), rule) for path, rule in problems]
    elif not declared_types and not empty:
        found.append(Problem("response body", "", f"has a body where {key} declares none"))
    if headers is not None:
        found += header_problems(operation_id, key, headers)
    return found


def header_problems(operation_id: str, key: str, headers: Mapping[str, Any]) -> List[Problem]:
    """The declared headers of an answer against their schemas; `headers` by name, in any case."""
    api = lookup(operation_id).operation.api
    given = {name.lower(): value for name, value in headers.items()}
    found = []
    for name, header in declared_answer(operation_id, key).get("headers", {}).items():
        header = follow(api, header)
        where = name.lower()
        if where not in given:
            if header.get("required"):
                found.append(Problem("response headers", where, "is required"))
            continue
        value = read_header(given[where], types_of(follow(api, header["schema"])))
        problems = schema_problems(validator(operation_id, "response headers", key, name), value, "is not a declared field")
        found += [Problem("response headers", where, rule) for _, rule in problems]
    return found


def read_header(text: Any, kinds: List[str]) -> Any:
    """A header's text read as its schema's type: a number when the whole text is a JSON number of finite value, a
    boolean from "true" or "false"; else the text, which then fails its type. A value that is no text is taken as
    read."""
    if isinstance(text, str) and ("integer" in kinds or "number" in kinds) and JSON_NUMBER.fullmatch(text):
        number = json.loads(text, parse_int=javascript_int)
        # 1e400 reads as infinity in Python and in JavaScript: no header's number, as JSON has none.
        if is_finite(number):
            return number
    if isinstance(text, str) and "boolean" in kinds and text in ("true", "false"):
        return text == "true"
    return text


def types_of(schema: Dict[str, Any]) -> List[str]:
    return types(schema.get("type", []))
