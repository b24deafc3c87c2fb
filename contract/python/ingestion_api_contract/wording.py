"""Schema errors in words: at each location of the value, the one rule that says best what is wrong, named as the
TypeScript client names it (src/client/validation.ts): "is required", "must be <= 64", "must be a valid uuid"."""
import json
from collections import OrderedDict
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from jsonschema.exceptions import ValidationError

Path = Tuple[Any, ...]
# (where in the value, the rule, its rank: lower says more, and wins at the same location)
Described = Tuple[Path, str, int]

# A wrong type makes a field's bounds and format moot; a summary of alternatives says less than any rule.
TYPE, RULE, SUMMARY = 0, 1, 2
# A value with a million bad items gets this many problems and a last line saying there are more.
MAX_PROBLEMS = 20


def problems_of(errors: Iterable[ValidationError], unknown: str) -> List[Tuple[Path, str]]:
    """(path, rule) for each location with an error, in the order the errors came; `unknown` is the rule of a field
    the schema does not allow (its additionalProperties is false)."""
    best: Dict[Path, Tuple[int, str]] = {}
    for error in errors:
        for path, rule, rank in describe(error, unknown):
            if path not in best or rank < best[path][0]:
                best[path] = (rank, rule)
        if len(best) > MAX_PROBLEMS:
            listed = [(path, rule) for path, (_, rule) in list(best.items())[:MAX_PROBLEMS]]
            return listed + [((), "and more problems, not listed")]
    return [(path, rule) for path, (_, rule) in best.items()]


def pointer(path: Sequence[Any]) -> str:
    """The JSON pointer of a path: "/result/state", or "" for the value itself."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def describe(error: ValidationError, unknown: str) -> List[Described]:
    path = tuple(error.absolute_path)
    keyword, limit = error.validator, error.validator_value
    if keyword == "required":
        return [(path + (name,), "is required", RULE) for name in limit if name not in error.instance]
    if keyword == "additionalProperties":
        declared = error.schema.get("properties", {})
        return [(path + (name,), unknown, RULE) for name in error.instance if name not in declared]
    if keyword == "type":
        return [(path, "must be " + " or ".join(types(limit)), TYPE)]
    if keyword in ("anyOf", "oneOf"):
        return alternatives(error, unknown)
    return [(path, rule(keyword, limit), RULE)]


def rule(keyword: str, limit: Any) -> str:
    """The words of a rule the value itself breaks."""
    if keyword == "enum":
        return "must be one of " + ", ".join(value if isinstance(value, str) else json.dumps(value) for value in limit)
    if keyword == "const":
        return "must be " + json.dumps(limit)
    if keyword == "minimum":
        return f"must be >= {number(limit)}"
    if keyword == "maximum":
        return f"must be <= {number(limit)}"
    if keyword == "minLength":
        return f"must be at least {limit} characters long"
    if keyword == "maxLength":
        return f"must be at most {limit} characters long"
    if keyword == "pattern":
        return f"must match the pattern {limit}"
    if keyword == "format":
        return f"must be a valid {limit}"
    return f'breaks the rule "{keyword}"'


def number(limit: Any) -> str:
    # As JavaScript prints it: 64, not 64.0.
    return str(int(limit)) if isinstance(limit, float) and limit.is_integer() else str(limit)


def types(limit: Any) -> List[str]:
    return [limit] if isinstance(limit, str) else list(limit)


def branches(error: ValidationError) -> "OrderedDict[int, List[ValidationError]]":
    """The errors of each alternative of an anyOf or oneOf, by its index (the first step of their schema path)."""
    grouped: "OrderedDict[int, List[ValidationError]]" = OrderedDict()
    for suberror in error.context:
        grouped.setdefault(suberror.relative_schema_path[0], []).append(suberror)
    return grouped


def alternatives(error: ValidationError, unknown: str) -> List[Described]:
    """An anyOf or oneOf that failed: the problems of the alternative the value was meant for, rather than "is not
    valid under any of the given schemas"."""
    path = tuple(error.absolute_path)
    grouped = branches(error)
    if not grouped:
        # A oneOf fails without errors in its alternatives when the value is valid under more than one of them.
        return [(path, "must match exactly one of the alternatives", SUMMARY)]
    meant = discriminated(error, grouped, unknown)
    if meant is not None:
        return meant
    wrong_types = [mismatched_types(errors) for errors in grouped.values()]
    if all(found is not None for found in wrong_types):
        # No alternative takes a value of this type: name the types they take ("must be string or null").
        merged = list(OrderedDict.fromkeys(name for found in wrong_types for name in found))
        return [(path, "must be " + " or ".join(merged), TYPE)]
    candidates = [
        [d for suberror in errors for d in describe(suberror, unknown)]
        for errors, found in zip(grouped.values(), wrong_types)
        if found is None
    ]
    # Of the alternatives whose type fits, the one the value comes closest to.
    return min(candidates, key=len)


def discriminated(error: ValidationError, grouped: "OrderedDict[int, List[ValidationError]]", unknown: str) -> Optional[List[Described]]:
    """For a oneOf with an OpenAPI discriminator (jsonschema does not read it): the problems of the alternative its
    property names, or the problem with that property itself; None when there is no discriminator to read."""
    discriminator = error.schema.get("discriminator") if error.validator == "oneOf" else None
    if not isinstance(discriminator, dict) or "mapping" not in discriminator or not isinstance(error.instance, dict):
        return None
    name, mapping = discriminator["propertyName"], discriminator["mapping"]
    where = tuple(error.absolute_path) + (name,)
    tag = error.instance.get(name)
    if not isinstance(tag, str):
        return [(where, "is required and must be a string", RULE)]
    if tag not in mapping:
        return [(where, "must be one of " + ", ".join(mapping), RULE)]
    # Every alternative has errors here (none matched), the one the mapping names among them.
    index = next(index for index, branch in enumerate(error.validator_value) if branch.get("$ref") == mapping[tag])
    return [described for suberror in grouped[index] for described in describe(suberror, unknown)]


def mismatched_types(errors: List[ValidationError]) -> Optional[List[str]]:
    """The types an alternative takes when the value is of none of them (here, not in a field), else None."""
    for error in errors:
        if error.relative_path:
            continue
        if error.validator == "type":
            return types(error.validator_value)
        if error.validator in ("anyOf", "oneOf") and error.context:
            inner = [mismatched_types(suberrors) for suberrors in branches(error).values()]
            if all(found is not None for found in inner):
                return [name for found in inner for name in found]
    return None
