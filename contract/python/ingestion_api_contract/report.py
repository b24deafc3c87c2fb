"""The reports of check-traffic: text for a person, JSON for a program, JUnit XML for a CI server."""
import json
import re
import xml.etree.ElementTree as ET
from collections import OrderedDict
from dataclasses import asdict
from typing import Dict, List

from . import contract
from .contract import path_and_query
from .traffic import Checked, Finding, Report

TOOL = "ingestion-api-contract check-traffic"


def count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def target(url: str) -> str:
    """The path and query of a URL: what a report names an exchange by."""
    path, query = path_and_query(url)
    return path + (f"?{query}" if query else "")


def by_exchange(report: Report) -> "OrderedDict[int, List[Finding]]":
    grouped: "OrderedDict[int, List[Finding]]" = OrderedDict()
    for finding in report.findings:
        grouped.setdefault(finding.index, []).append(finding)
    return grouped


def finding_text(finding: Finding) -> str:
    """`part where: rule`, as a finding's line says it after its "✗ " (and JUnit's failure, without it)."""
    where = f" {finding.where}" if finding.where else ""
    return f"{finding.part}{where}: {finding.rule}"


def finding_line(finding: Finding) -> str:
    return f"  ✗ {finding_text(finding)}"


# The characters XML 1.0 allows (its Char production): no control character but tab, LF and CR, no lone surrogate
# (json.loads keeps "\ud800" as one; UTF-8 cannot even write it), no U+FFFE or U+FFFF. A URL with "\x01" made
# invalid XML; ElementTree escapes markup but does not drop these: they are left out (Node's report leaves out the
# control characters).
NOT_IN_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# json.loads reads "\ud800" into a lone surrogate, which no UTF-8 output can hold (printing it raised).
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def xml_text(text: str) -> str:
    return NOT_IN_XML.sub("", text)


def suite_of(checked: Checked) -> str:
    """A testsuite's name, and its testcases' classname: `<api>.<operationId>` ("management.listServices"), or
    "unknown" for exchanges that call no operation, as Node's report names them."""
    return f"{contract.lookup(checked.operation).operation.api}.{checked.operation}" if checked.operation else "unknown"


def text(report: Report) -> str:
    """A head line, each exchange with findings and its findings, the operations seen, and the verdict: the lines
    `ingestion-api check-traffic` prints."""
    lines = [f"{TOOL} {report.version}: {report.file}, {count(report.exchanges, 'exchange')} ({report.format})"]
    grouped = by_exchange(report)
    for checked in report.checked:
        if checked.index in grouped:
            lines += ["", f"#{checked.index} {checked.time or '-'} {checked.method.upper()} {target(checked.url)}  {checked.operation or '?'}"]
            lines += [finding_line(finding) for finding in grouped[checked.index]]
    seen: "OrderedDict[str, int]" = OrderedDict()
    for checked in report.checked:
        if checked.operation:
            seen[checked.operation] = seen.get(checked.operation, 0) + 1
    unanswered = sum(1 for checked in report.checked if not checked.answered)
    operations = ", ".join(f"{operation} {number}" for operation, number in seen.items()) or "none"
    without = f" {count(unanswered, 'exchange')} without an answer: only the request was checked." if unanswered else ""
    lines += ["", f"Operations: {operations}.{without}"]
    if grouped:
        lines.append(f"FAILED: {count(len(report.findings), 'finding')} in {len(grouped)} of {count(report.exchanges, 'exchange')}.")
    else:
        lines.append(f"PASSED: {count(report.exchanges, 'exchange')}, each as the contract says.")
    # A lone surrogate (json.loads keeps "\ud800" in a URL) cannot be written as UTF-8 and stopped the print:
    # it shows as U+FFFD, as Node writes it.
    return LONE_SURROGATE.sub("\ufffd", "\n".join(lines))


def json_text(report: Report) -> str:
    document = {
        "tool": TOOL,
        "version": report.version,
        "file": report.file,
        "format": report.format,
        "exchanges": report.exchanges,
        "passed": not report.findings,
        "findings": [asdict(finding) for finding in report.findings],
    }
    # A lone surrogate, only ever inside a string, is written as its escape ("\\ud800"), as JSON.stringify does.
    return LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", json.dumps(document, indent=2, ensure_ascii=False))


def junit(report: Report) -> str:
    """A testsuite per operation ("unknown" for exchanges that call none), in the order they first come; a testcase
    per exchange, failing with its findings: the same elements and attributes as Node's report."""
    grouped = by_exchange(report)
    root = ET.Element("testsuites", name=TOOL, tests=str(report.exchanges), failures=str(len(grouped)), errors="0")
    suites: Dict[str, ET.Element] = {}
    for checked in report.checked:
        name = suite_of(checked)
        if name not in suites:
            suites[name] = ET.SubElement(root, "testsuite", name=xml_text(name), tests="0", failures="0", errors="0", skipped="0")
        suite = suites[name]
        suite.set("tests", str(int(suite.get("tests", "0")) + 1))
        title = f"#{checked.index} {checked.method} {target(checked.url)}"
        case = ET.SubElement(suite, "testcase", name=xml_text(title), classname=xml_text(name))
        findings = grouped.get(checked.index)
        if findings:
            suite.set("failures", str(int(suite.get("failures", "0")) + 1))
            lines = [xml_text(finding_text(finding)) for finding in findings]
            failure = ET.SubElement(case, "failure", message=lines[0])
            failure.text = "\n".join(lines)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
