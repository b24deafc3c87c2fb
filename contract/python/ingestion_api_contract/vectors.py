"""The test vectors the package ships, vectors/<api>/<operationId>.json, and the verdict this package's API
reaches on each: a vector is invalid exactly when its check finds a problem."""
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List

from .contract import Problem, check_request, check_response

VECTORS = Path(__file__).parent / "vectors"


@dataclass(frozen=True)
class Outcome:
    api: str
    vector: Dict[str, Any]
    problems: List[Problem]

    @property
    def verdict(self) -> str:
        return "invalid" if self.problems else "valid"


def problems_of(vector: Dict[str, Any]) -> List[Problem]:
    """A vector's part checked alone: its params, its request body, or its response body in its status and media type."""
    operation_id, part, value = vector["operation"], vector["part"], vector["value"]
    if part == "params":
        return check_request(operation_id, params=value)
    if part == "request":
        return check_request(operation_id, body=value)
    return check_response(operation_id, vector["status"], value, media_type=vector["mediaType"])


def outcomes() -> Iterator[Outcome]:
    """The outcome of every vector, by interface, file and list order."""
    for folder in sorted(path for path in VECTORS.iterdir() if path.is_dir()):
        for file in sorted(folder.glob("*.json")):
            for vector in json.loads(file.read_text(encoding="utf-8")):
                yield Outcome(folder.name, vector, problems_of(vector))
