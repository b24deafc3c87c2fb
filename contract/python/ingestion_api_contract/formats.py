"""The JSON Schema validator the checks use: Draft 2020-12, with the formats and the `pattern` semantics of the
TypeScript package's validators (Ajv compiled with src/contract/formats.js), so both reach the same verdicts.

jsonschema's own format checkers differ from those (its date-time needs an optional package, and none of its
versions checks int32 or int64), so a checker of exactly the four formats the contract uses is built here.
"""
import math
import re
from functools import lru_cache
from typing import Any, Dict, Iterator

from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError

# re.ASCII: in JavaScript, \d, [0-9a-f] with the i flag and the like never match beyond ASCII.
UUID = re.compile(r"(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}", re.I | re.A)
DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.A)
DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
TIME = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2}(?:\.[0-9]+)?)(z|([+-])([0-9]{2})(?::?([0-9]{2}))?)?", re.I | re.A)
# formats.js splits a date-time at /t|\s/i: the letter t in either case, or what JavaScript's \s matches (Python's
# \s differs at the edges, so the set is spelled out).
DATE_TIME_SEPARATOR = re.compile("[tT\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")
INT32 = (-(2**31), 2**31 - 1)
# Number.isSafeInteger: larger integers lose precision in JavaScript's JSON.parse.
MAX_SAFE_INTEGER = 2**53 - 1


def is_leap_year(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def is_date(text: str) -> bool:
    """RFC 3339 full-date."""
    match = DATE.fullmatch(text)
    if not match:
        return False
    year, month, day = (int(group) for group in match.groups())
    return 1 <= month <= 12 and 1 <= day <= (29 if month == 2 and is_leap_year(year) else DAYS[month])


def is_time(text: str) -> bool:
    """RFC 3339 full-time: the time zone is required; a leap second is accepted at 23:59:60 UTC only."""
    match = TIME.fullmatch(text)
    if not match or not match[4]:
        return False
    hour, minute, second = int(match[1]), int(match[2]), float(match[3])
    zone_sign = -1 if match[5] == "-" else 1
    zone_hour, zone_minute = int(match[6] or 0), int(match[7] or 0)
    if zone_hour > 23 or zone_minute > 59:
        return False
    if hour <= 23 and minute <= 59 and second < 60:
        return True
    utc_minute = minute - zone_minute * zone_sign
    utc_hour = hour - zone_hour * zone_sign - (1 if utc_minute < 0 else 0)
    return utc_hour in (23, -1) and utc_minute in (59, -1) and second < 61


def is_number(value: Any) -> bool:
    # bool is a subclass of int in Python, but true is no number in JSON.
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_integer(value: Any) -> bool:
    """Number.isInteger: 3.0 is an integer, as JSON cannot tell it from 3."""
    return isinstance(value, int) or value.is_integer()


def is_finite(value: Any) -> bool:
    """Whether a number is one JavaScript holds as finite: JSON.parse reads 1e400 as Infinity, Python's json as inf;
    an int beyond the largest double (1.8e308) is Infinity there too (math.isfinite raises OverflowError on it)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def javascript_int(digits: str) -> Any:
    """An integer of JSON text (json.loads' parse_int) as JavaScript reads it, where it gets too long to matter
    otherwise: int() refuses 4300 digits or more (int_max_str_digits: the whole file or body would be "not JSON"),
    and beyond 1.8e308 JSON.parse gives Infinity. float() reads such digits as JSON.parse does, correctly rounded.
    Shorter integers stay exact ints (int64's safe-integer check reads them)."""
    return int(digits) if len(digits) <= 300 else float(digits)


FORMATS = FormatChecker(formats=())


# A format applies to its own type only: a value of another type passes it (its `type` decides).
@FORMATS.checks("uuid")
def uuid(value: Any) -> bool:
    return not isinstance(value, str) or UUID.fullmatch(value) is not None


@FORMATS.checks("date-time")
def date_time(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    parts = DATE_TIME_SEPARATOR.split(value)
    return len(parts) == 2 and is_date(parts[0]) and is_time(parts[1])


@FORMATS.checks("int32")
def int32(value: Any) -> bool:
    return not is_number(value) or (is_integer(value) and INT32[0] <= value <= INT32[1])


@FORMATS.checks("int64")
def int64(value: Any) -> bool:
    return not is_number(value) or (is_integer(value) and abs(value) <= MAX_SAFE_INTEGER)


@lru_cache(maxsize=None)
def javascript_regex(pattern: str) -> "re.Pattern[str]":
    """A schema pattern as JavaScript reads it. Python's `$` also matches before a final newline, JavaScript's only
    at the very end: "65f1c2d3e4b5a69788796a5b\\n" must not pass `^[0-9a-f]{24}$`. The bundles' patterns use nothing
    else that the two dialects read differently (only ^, $, classes, groups and counts)."""
    translated, in_class, escaped = [], False, False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "$" and not in_class:
            char = r"\Z"
        translated.append(char)
    return re.compile("".join(translated))


def pattern(validator: Any, regex: str, instance: Any, schema: Dict[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not javascript_regex(regex).search(instance):
        yield ValidationError(f"{instance!r} does not match {regex!r}")


def finite_number(checker: Any, value: Any) -> bool:
    # Ajv's number and integer are finite (JSON has no Infinity or NaN): {"status": 1e400} parses to inf here, and
    # must fail `type: number` as it does in Node. bool stays excluded (is_number).
    return is_number(value) and is_finite(value)


def finite_integer(checker: Any, value: Any) -> bool:
    return finite_number(checker, value) and is_integer(value)


TYPES = Draft202012Validator.TYPE_CHECKER.redefine_many({"number": finite_number, "integer": finite_integer})

Validator = validators.extend(Draft202012Validator, {"pattern": pattern}, type_checker=TYPES)
