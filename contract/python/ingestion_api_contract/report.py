"""The reports of check-traffic: text for a person, JSON for a program, JUnit XML for a CI server."""
import json
import xml.etree.ElementTree as ET
from collections import OrderedDict
from dataclasses import asdict
from typing import Dict, List
from urllib.parse import urlsplit

from .traffic import Finding, Report

TOOL = "ingestion-api-contract check-traffic"


def count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def target(url: str) -> str:
    """The path and query of a URL: what a report names an exchange by."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def by_exchange(report: Report) -> "OrderedDict[int, List[Finding]]":
    grouped: "OrderedDict[int, List[Finding]]" = OrderedDict()
    for finding in report.findings:
        grouped.setdefault(finding.index, []).append(finding)
    return grouped


def finding_line(finding: Finding) -> str:
    where = f" {finding.where}" if finding.where else ""
    return f"  ✗ {finding.part}{where}: {finding.rule}"


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
    return "\n".join(lines)


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
    return json.dumps(document, indent=2, ensure_ascii=False)


def junit(report: Report) -> str:
    """A testsuite per operation ("unknown" for exchanges that call none), in the order they first come; a testcase
    per exchange, failing with its findings."""
    grouped = by_exchange(report)
    root = ET.Element("testsuites", name=TOOL, tests=str(report.exchanges), failures=str(len(grouped)))
    suites: Dict[str, ET.Element] = {}
    for checked in report.checked:
        name = checked.operation or "unknown"
        if name not in suites:
            suites[name] = ET.SubElement(root, "testsuite", name=name, tests="0", failures="0")
        suite = suites[name]
        suite.set("tests", str(int(suite.get("tests", "0")) + 1))
        case = ET.SubElement(suite, "testcase", classname=name, name=f"#{checked.index} {checked.method} {target(checked.url)}")
        findings = grouped.get(checked.index)
        if findings:
            suite.set("failures", str(int(suite.get("failures", "0")) + 1))
            failure = ET.SubElement(case, "failure", message=count(len(findings), "finding"), type="contract")
            failure.text = "\n".join(finding_line(finding).strip() for finding in findings)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
