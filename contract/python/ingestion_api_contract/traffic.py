"""Recorded traffic, a HAR 1.2 file or JSON Lines, read into exchanges and checked against the contract.

Both follow the shared specification of check-traffic, which `ingestion-api check-traffic` (Node) follows too:
for every exchange, the two find problems in the same parts.
"""
import base64
import json
import re
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union
from urllib.parse import parse_qsl

from . import contract
from .contract import NOT_GIVEN, Problem
from .formats import is_number, javascript_int


class UnreadableTraffic(Exception):
    """The file cannot be read as traffic; the message says why ("cannot read FILE: line 3 is not JSON (...)")."""


@dataclass(frozen=True)
class Message:
    """A request or a response as recorded."""

    # By lower-case name; a header given twice keeps its first value.
    headers: Dict[str, str]
    # The body's text; None when there is none.
    text: Optional[str]
    # The body as a JSON value, when the recording holds it parsed (JSON Lines); else NOT_GIVEN.
    value: Any = NOT_GIVEN
    # False when a body came but the recording did not keep it (a HAR answer with a content.size and no text): then
    # text is None, and the body is not checked.
    recorded: bool = True

    def json(self) -> Any:
        """The body as JSON; ValueError when it is not JSON."""
        return parse_json(self.text or "") if self.value is NOT_GIVEN else self.value


@dataclass(frozen=True)
class Exchange:
    index: int
    time: Optional[str]
    method: str
    url: str
    request: Message
    # None when no answer was recorded (HAR status 0, JSON Lines without one).
    response: Optional[Message]
    status: Optional[int]


@dataclass(frozen=True)
class Checked:
    """One exchange as a report names it."""

    index: int
    time: Optional[str]
    method: str
    url: str
    operation: Optional[str]
    # False when no answer was recorded: only the request was checked.
    answered: bool


@dataclass(frozen=True)
class Finding:
    """A problem of one exchange: which exchange, then the part, where in it, and the rule it breaks."""

    index: int
    time: Optional[str]
    method: str
    url: str
    operation: Optional[str]
    part: str
    where: str
    rule: str


@dataclass(frozen=True)
class Report:
    file: str
    format: str
    version: str
    checked: List[Checked]
    findings: List[Finding]

    @property
    def exchanges(self) -> int:
        return len(self.checked)


def reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class NestedTooDeeply(ValueError):
    """JSON nested deeper than Python's parser goes. json.loads recurses once per level and stops at the recursion
    limit (about 1000 frames, less the caller's), where Node's JSON.parse reads far deeper: a body this deep is "not
    JSON" here, a file is not HAR, a line of JSON Lines is unreadable; nothing crashes."""


def parse_json(text: str) -> Any:
    """JSON as JavaScript's JSON.parse reads it: NaN and Infinity are not JSON. ValueError when it is not JSON
    (NestedTooDeeply when it is nested too deeply to read)."""
    try:
        return json.loads(text, parse_constant=reject_constant, parse_int=javascript_int)
    except RecursionError:
        raise NestedTooDeeply("nested too deeply") from None


def is_object(value: Any) -> bool:
    return isinstance(value, dict)


def is_status(value: Any) -> bool:
    """An integer status; JSON cannot tell 200.0 from 200 (true is no number)."""
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer())


def headers_of(given: Any, where: str) -> Dict[str, str]:
    """Headers given as a HAR list ([{name, value}]) or an object ({name: value}), by lower-case name."""
    if isinstance(given, list):
        pairs = [(header.get("name"), header.get("value")) if is_object(header) else (None, None) for header in given]
    elif is_object(given):
        pairs = list(given.items())
    elif given is None:
        pairs = []
    else:
        raise UnreadableTraffic(f"{where}: headers must be a list of {{name, value}} or an object")
    headers: Dict[str, str] = {}
    for name, value in pairs:
        if not isinstance(name, str) or not isinstance(value, str):
            raise UnreadableTraffic(f"{where}: a header's name and value must be strings")
        # A field's value has no leading or trailing whitespace (RFC 9110, 5.5): a recording may keep some.
        headers.setdefault(name.lower(), value.strip("\t\n\r "))
    return headers


def with_media_type(headers: Dict[str, str], mime_type: Any) -> Dict[str, str]:
    """HAR states the media type beside the text too: it stands for a Content-Type the headers leave out."""
    if "content-type" not in headers and isinstance(mime_type, str) and mime_type:
        headers["content-type"] = mime_type
    return headers


def base64_text(text: str) -> str:
    """Base64 decoded as Node's Buffer.from(text, "base64") does: URL-safe letters taken, other characters outside
    the alphabet (line breaks, padding) skipped, a last lone letter ignored; the bytes read as UTF-8."""
    letters = re.sub(r"[^A-Za-z0-9+/]", "", text.replace("-", "+").replace("_", "/"))
    letters = letters[: len(letters) - 1] if len(letters) % 4 == 1 else letters
    return base64.b64decode(letters + "=" * (-len(letters) % 4)).decode("utf-8", errors="replace")


def har_exchange(entry: Any, index: int) -> Exchange:
    where = f"log.entries[{index - 1}]"
    if not is_object(entry) or not is_object(entry.get("request")) or not is_object(entry.get("response")):
        raise UnreadableTraffic(f"{where} has no request and response")
    request, response = entry["request"], entry["response"]
    if not isinstance(request.get("method"), str) or not isinstance(request.get("url"), str):
        raise UnreadableTraffic(f"{where}.request has no method and url")
    status = response.get("status")
    if not is_status(status):
        raise UnreadableTraffic(f"{where}.response.status is not a status code")
    post_data = request.get("postData") if is_object(request.get("postData")) else {}
    content = response.get("content") if is_object(response.get("content")) else {}
    text = content.get("text") if isinstance(content.get("text"), str) else ""
    # A browser leaves the text out of a body it did not keep (too large, binary, evicted) but still counts its
    # bytes in content.size: such a body is not recorded, not empty. No text and no size (or 0): an empty body.
    size = content.get("size")
    kept = isinstance(content.get("text"), str) or not (is_number(size) and size > 0)
    answer = Message(
        with_media_type(headers_of(response.get("headers"), f"{where}.response"), content.get("mimeType")),
        (base64_text(text) if content.get("encoding") == "base64" else text) if kept else None,
        recorded=kept,
    )
    return Exchange(
        index=index,
        time=entry.get("startedDateTime") if isinstance(entry.get("startedDateTime"), str) else None,
        method=request["method"],
        url=request["url"],
        request=Message(
            with_media_type(headers_of(request.get("headers"), f"{where}.request"), post_data.get("mimeType")),
            post_data.get("text") if isinstance(post_data.get("text"), str) else None,
        ),
        # A browser records status 0 for a request that got no answer (blocked, cancelled, offline).
        response=None if status == 0 else answer,
        status=None if status == 0 else int(status),
    )


def json_lines_message(message: Dict[str, Any], where: str) -> Message:
    """A JSON Lines request or response: a string body is its text; any other JSON value, the body already parsed."""
    headers = headers_of(message.get("headers"), where)
    body = message.get("body")
    if body is None:
        return Message(headers, None)
    if isinstance(body, str):
        return Message(headers, body)
    return Message(headers, json.dumps(body), body)


def json_lines_exchange(line: Any, index: int, number: int) -> Exchange:
    where = f"line {number}"
    request = line.get("request") if is_object(line) else None
    if not is_object(request) or not isinstance(request.get("method"), str) or not isinstance(request.get("url"), str):
        raise UnreadableTraffic(f'{where}: expected {{"request": {{"method", "url", ...}}, "response": {{...}}}}')
    response = line.get("response")
    status = response.get("status") if is_object(response) else None
    if response is not None and not is_status(status):
        raise UnreadableTraffic(f'{where}: response must be {{"status": <integer>, ...}} or left out')
    return Exchange(
        index=index,
        time=line.get("time") if isinstance(line.get("time"), str) else None,
        method=request["method"],
        url=request["url"],
        request=json_lines_message(request, f"{where}: request"),
        response=None if response is None else json_lines_message(response, f"{where}: response"),
        status=None if response is None else int(status),
    )


def read_exchanges(text: str) -> Tuple[str, List[Exchange]]:
    """(format, exchanges) of a file's text: HAR 1.2 when the whole text is JSON with `log.entries`, else JSON Lines."""
    try:
        whole = parse_json(text)
    except ValueError:
        whole = None
    if is_object(whole) and is_object(whole.get("log")) and isinstance(whole["log"].get("entries"), list):
        kind, exchanges = "HAR 1.2", [har_exchange(entry, at + 1) for at, entry in enumerate(whole["log"]["entries"])]
    else:
        kind, exchanges = "JSON Lines", []
        for at, line in enumerate(text.split("\n")):
            # Blank: nothing but spaces, tabs and a CR, as in Node. Not str.strip(), which takes U+001C..U+001F and
            # U+0085 too (JavaScript's trim() keeps them, and takes U+FEFF, which str.strip() keeps).
            if not line.strip(" \t\r"):
                continue
            try:
                parsed = parse_json(line)
            except ValueError as error:
                why = f"{error.msg}, column {error.colno}" if isinstance(error, json.JSONDecodeError) else str(error)
                raise UnreadableTraffic(f"line {at + 1} is not JSON ({why}); expected a HAR 1.2 file or JSON Lines") from None
            exchanges.append(json_lines_exchange(parsed, len(exchanges) + 1, at + 1))
    if not exchanges:
        raise UnreadableTraffic(f"no exchanges ({kind})")
    return kind, exchanges


def query_values(operation_id: str, query: str) -> Dict[str, Any]:
    """The declared query parameters of a query string: an array parameter takes every value given, in order; any
    other its value, or the list of them when given several times (which then fails its type). A server ignores
    the parameters it does not declare, so they are left out."""
    declared = contract.query_parameters(operation_id)
    given: Dict[str, List[str]] = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        if name in declared:
            given.setdefault(name, []).append(value)
    return {name: values if declared[name] or len(values) > 1 else values[0] for name, values in given.items()}


def request_header_problems(operation_id: str, request: Message) -> List[Problem]:
    found = []
    scheme = contract.auth_scheme(operation_id)
    authorization = request.headers.get("authorization")
    if authorization is None:
        found.append(Problem("request headers", "authorization", f"Authorization is required (HTTP {scheme})"))
    else:
        # The value as read (HTTP's whitespace already trimmed), trimmed no further, as in Node: str.strip() takes
        # U+001C..U+001F and U+0085, which JavaScript's trim() keeps, and keeps U+FEFF, which trim() takes.
        given = authorization.split(" ", 1)[0]
        if given.lower() != scheme.lower():
            used = f"uses the {given} scheme" if given else "is empty"
            found.append(Problem("request headers", "authorization", f"Authorization {used}; this interface takes {scheme}"))
    media_types = contract.request_media_types(operation_id)
    # An empty text is no body: it has no media type to check.
    if media_types is not None and request.text:
        seen = contract.media_type_of(request.headers.get("content-type"))
        listed = ", ".join(media_types)
        if seen is None:
            found.append(Problem("request headers", "content-type", f"Content-Type is required with a body ({listed})"))
        elif seen not in media_types:
            found.append(Problem("request headers", "content-type", f"{seen} is not a media type this operation takes ({listed})"))
    return found


def request_body_problems(operation_id: str, request: Message) -> List[Problem]:
    """The body of an operation that declares one (every request body of the contract is required); bodies sent to
    other operations are not checked."""
    if contract.request_media_types(operation_id) is None:
        return []
    if not request.text:
        return [Problem("request body", "", "is required")]
    try:
        value = request.json()
    except ValueError:
        return [Problem("request body", "", "is not JSON")]
    return contract.check_request(operation_id, body=value)


# The parts of an exchange, in the specification's order: a report lists an exchange's findings in it.
PARTS = ("operation", "path", "query", "request headers", "request body",
         "response status", "response media type", "response headers", "response body")


def check_exchange(exchange: Exchange) -> Tuple[Optional[str], List[Problem]]:
    """(the operation id or None, the problems) of one exchange, in the specification's order of parts."""
    path, query = contract.path_and_query(exchange.url)
    candidates = contract.operations_at(exchange.url)
    if not candidates:
        return None, [Problem("operation", "", f"{exchange.method.upper()} {path} is no operation of the contract")]
    chosen = next(((operation, params) for operation, params in candidates if operation.method == exchange.method.upper()), None)
    if chosen is None:
        methods = [operation.method for operation, _ in candidates]
        declared = f"{', '.join(methods)} {'is' if len(methods) == 1 else 'are'}"
        return None, [Problem("operation", "", f"{exchange.method.upper()} is not declared for {candidates[0][0].template} ({declared})")]
    operation, path_params = chosen
    operation_id = operation.operation_id
    found = contract.check_request(operation_id, params={**path_params, **query_values(operation_id, query)})
    found += request_header_problems(operation_id, exchange.request)
    found += request_body_problems(operation_id, exchange.request)
    response = exchange.response
    if response is not None and exchange.status is not None:
        content_type = response.headers.get("content-type")
        found += contract.response_problems(operation_id, exchange.status, content_type, not response.text, response.json, response.headers,
                                            recorded=response.recorded)
    # The checks run in another order (a response's headers after its body; path and query problems as the schema
    # finds them): sorted by part, stably, as Node's report lists them.
    found.sort(key=lambda problem: PARTS.index(problem.part))
    return operation_id, found


def check_traffic(path: Union[str, "PathLike[str]"]) -> Report:
    """Reads a HAR 1.2 or JSON Lines file and checks each exchange; UnreadableTraffic when it cannot be read."""
    try:
        # As Node reads it: bytes that are not UTF-8 become U+FFFD instead of stopping the check.
        kind, exchanges = read_exchanges(Path(path).read_bytes().decode("utf-8", errors="replace"))
    except OSError as error:
        raise UnreadableTraffic(f"cannot read {path}: {error.strerror or error}") from None
    except UnreadableTraffic as error:
        raise UnreadableTraffic(f"cannot read {path}: {error}") from None
    checked, findings = [], []
    for exchange in exchanges:
        operation_id, problems = check_exchange(exchange)
        head = (exchange.index, exchange.time, exchange.method.upper(), exchange.url, operation_id)
        checked.append(Checked(*head, exchange.response is not None))
        findings += [Finding(*head, problem.part, problem.where, problem.rule) for problem in problems]
    return Report(str(path), kind, contract.version(), checked, findings)
