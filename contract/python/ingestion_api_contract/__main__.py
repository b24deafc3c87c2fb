"""python3 -m ingestion_api_contract: check recorded traffic against the contract, or run the shipped vectors."""
import argparse
import sys
from importlib.metadata import version as installed_version
from pathlib import Path
from typing import List, Optional

from . import __version__, report
from .traffic import UnreadableTraffic, check_traffic
from .vectors import outcomes

PROG = "python3 -m ingestion_api_contract"

DESCRIPTION = "The contract of the ingestion platform's HTTP interfaces: check recorded traffic against it, or run its test vectors."

EXAMPLES = f"""\
examples:
  {PROG} check-traffic session.har
  {PROG} check-traffic calls.jsonl --json --junit contract-junit.xml
  {PROG} vectors
"""

CHECK_TRAFFIC = """\
Checks every exchange of a recording against the contract: the operation (method and path), the path and query
parameters, the Authorization scheme, the request's Content-Type and JSON body, and the response's status, media
type, JSON body and declared headers. Query parameters the operation does not declare are not checked.

FILE is a HAR 1.2 file (as browsers and proxies save it) or JSON Lines, one exchange per line:
  {"time": "...", "request": {"method": "PUT", "url": "/v1/...", "headers": {...}, "body": {...}},
   "response": {"status": 200, "headers": {...}, "body": "..."}}
time, headers, bodies and response are optional; headers are an object or a list of {name, value}; a body is
its text when a string, else the JSON value itself; without a response only the request is checked.
"""

EXIT_CODES = "exit status: 0 no finding, 1 at least one finding, 2 the file cannot be read or the arguments are wrong"


def arguments(argv: List[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"ingestion-api-contract {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    check = commands.add_parser(
        "check-traffic",
        help="check a HAR 1.2 or JSON Lines recording of HTTP exchanges against the contract",
        description=CHECK_TRAFFIC,
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("file", metavar="FILE", help="the recording: HAR 1.2, or JSON Lines")
    check.add_argument("--json", action="store_true", help="print the report as JSON instead of text")
    check.add_argument("--junit", metavar="OUT", help="also write the report as JUnit XML to OUT (a testcase per exchange)")
    commands.add_parser(
        "vectors",
        help="check that every shipped test vector gets its verdict from this package",
        description="Runs every test vector of vectors/<api>/<operationId>.json through check_request and check_response, "
        "and checks that each gets the verdict it states. Exit status 0 when all do, 1 otherwise.",
    )
    return parser.parse_args(argv)


def run_check_traffic(options: argparse.Namespace) -> int:
    try:
        checked = check_traffic(options.file)
    except UnreadableTraffic as error:
        print(f"{report.TOOL}: {error}", file=sys.stderr)
        return 2
    if options.junit:
        try:
            Path(options.junit).write_text(report.junit(checked), encoding="utf-8")
        except OSError as error:
            print(f"{report.TOOL}: cannot write {options.junit}: {error.strerror or error}", file=sys.stderr)
            return 2
    print(report.json_text(checked) if options.json else report.text(checked))
    return 1 if checked.findings else 0


def run_vectors() -> int:
    results = list(outcomes())
    engine = f"jsonschema {installed_version('jsonschema')}"
    if not results:
        # An empty or misplaced vectors folder must not look like a pass.
        print("vectors: no vectors found in the package (expected vectors/<api>/<operationId>.json)")
        return 1
    wrong = [outcome for outcome in results if outcome.verdict != outcome.vector["verdict"]]
    for outcome in wrong:
        vector = outcome.vector
        why = "; ".join(f"{problem.part} {problem.where}: {problem.rule}" for problem in outcome.problems)
        print(f"  {outcome.api}/{vector['operation']} {vector['part']} \"{vector['name']}\": expected {vector['verdict']}, "
              f"got {outcome.verdict} (rule: {vector['rule']}){': ' + why if why else ''}")
    if wrong:
        print(f"vectors: {len(wrong)} of {len(results)} vectors got the wrong verdict ({engine})")
        return 1
    print(f"vectors: all {len(results)} vectors got their verdict ({engine})")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    # The wheel's console script (ingestion-api-contract = ingestion_api_contract.__main__:main) calls main() with
    # no argument: the arguments are then the command line's.
    options = arguments(sys.argv[1:] if argv is None else argv)
    return run_check_traffic(options) if options.command == "check-traffic" else run_vectors()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
