"""The OpenAPI 3.1 contract of the ingestion platform's two HTTP interfaces, management and alerts, with checks of
requests, responses and recorded traffic against it (see the README)."""
from .contract import Operation, Problem, bundle, check_request, check_response, find_operation, operations, version
from .traffic import Finding, Report, UnreadableTraffic, check_traffic

# Both bundles carry the package's version as info.version; reading it needs no installed metadata.
__version__ = version()

__all__ = [
    "Finding",
    "Operation",
    "Problem",
    "Report",
    "UnreadableTraffic",
    "bundle",
    "check_request",
    "check_response",
    "check_traffic",
    "find_operation",
    "operations",
]
