"""Every ``--output-format``, through the real CLI, and the SARIF log's structure."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jitlint.engine import Diagnostic
from jitlint.output import FORMATS, JSON_KEYS, format_full, format_github
from jitlint.rules import ALL_RULES

SOURCE = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x)
""")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def project(tmp_path):
    (tmp_path / "loop.py").write_text(SOURCE)
    (tmp_path / "clean.py").write_text("import jax\n\nf = jax.jit(lambda v: v)\n")
    return tmp_path


def jitlint(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "jitlint", "check", *args], cwd=cwd,
                          capture_output=True, text=True, env=full_env, timeout=120)


def test_cli_offers_every_format(tmp_path):
    out = jitlint(tmp_path, "--help").stdout
    for name in ("concise", "full", "json", "json-lines", "github", "sarif"):
        assert name in FORMATS
        assert name in out


def test_concise(project):
    proc = jitlint(project, "loop.py")
    assert proc.returncode == 1
    assert proc.stdout.startswith("loop.py:6:9: JIT101 [*] jax.jit of a lambda inside a loop")
    assert proc.stdout.splitlines()[1:] == ["Found 1 finding (1 fixable with `jitlint check --fix`)."]


def test_full_has_a_code_frame_with_a_caret_under_the_span(project):
    proc = jitlint(project, "loop.py", "--output-format", "full")
    assert proc.returncode == 1
    assert not ANSI.search(proc.stdout), "no colour when stdout is not a terminal"
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("loop.py:6:9: JIT101 ") and lines[0].endswith("[jit-of-lambda]")
    source_line = next(line for line in lines if line.startswith("6 |"))
    caret_line = lines[lines.index(source_line) + 1]
    assert source_line == "6 |     x = jax.jit(lambda v: v * 2.0)(x)"
    start = caret_line.index("^")
    assert source_line[start:start + caret_line.count("^")] == "jax.jit(lambda v: v * 2.0)"


def test_full_colour_is_forced_and_no_color_wins(project):
    coloured = jitlint(project, "loop.py", "--output-format", "full", env={"FORCE_COLOR": "1"})
    assert ANSI.search(coloured.stdout)
    assert ANSI.sub("", coloured.stdout) == jitlint(project, "loop.py", "--output-format", "full").stdout
    plain = jitlint(project, "loop.py", "--output-format", "full",
                    env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert not ANSI.search(plain.stdout)


def test_full_frame_with_tabs_and_multiline_span(tmp_path):
    path = tmp_path / "t.py"
    path.write_text("if True:\n\tx = (1,\n\t     2)\n")
    d = Diagnostic(str(path), 2, 6, 3, 8, "JIT101", "jit-of-lambda", "msg", "warning")
    out = format_full([d], color=False).splitlines()
    assert out[2] == "2 |     x = (1,"
    assert out[3] == "  |         ^^^"  # to the end of the first line of the span


def test_json_keys_are_the_contract(project):
    [d] = json.loads(jitlint(project, "loop.py", "--output-format", "json").stdout)
    assert tuple(d) == JSON_KEYS
    assert (d["path"], d["line"], d["column"], d["end_line"], d["end_column"], d["code"],
            d["name"], d["severity"]) == ("loop.py", 6, 9, 6, 35, "JIT101", "jit-of-lambda", "warning")


def test_json_lines_equals_json(project):
    as_json = json.loads(jitlint(project, ".", "--output-format", "json").stdout)
    lines = jitlint(project, ".", "--output-format", "json-lines").stdout.splitlines()
    assert [json.loads(line) for line in lines] == as_json
    assert all(tuple(json.loads(line)) == JSON_KEYS for line in lines)


def test_github_workflow_commands(project):
    proc = jitlint(project, "loop.py", "--output-format", "github")
    message = json.loads(jitlint(project, "loop.py", "--output-format", "json").stdout)[0]["message"]
    assert proc.stdout == (f"::warning file=loop.py,line=6,col=9,endLine=6,endColumn=35,"
                           f"title=JIT101::{message}\n")


def test_github_escapes_data_and_properties():
    d = Diagnostic("a,b:c.py", 1, 1, 1, 2, "JIT000", "unparsable-file", "50% bad\nline", "error")
    assert format_github([d]) == ("::error file=a%2Cb%3Ac.py,line=1,col=1,endLine=1,endColumn=2,"
                                  "title=JIT000::50%25 bad%0Aline\n")


# ---------------------------------------------------------------------------- sarif
def _is_text(obj) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("text"), str) and obj["text"].strip() != ""


def validate_sarif(log: dict) -> None:
    """The parts of the SARIF 2.1.0 schema that GitHub code scanning relies on."""
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    assert isinstance(log["runs"], list) and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "jitlint" and isinstance(driver["version"], str)
    rules = driver["rules"]
    ids = [rule["id"] for rule in rules]
    assert len(ids) == len(set(ids))
    for rule in rules:
        assert re.fullmatch(r"JIT\d{3}", rule["id"])
        assert isinstance(rule["name"], str) and rule["name"]
        for key in ("shortDescription", "fullDescription", "help"):
            assert _is_text(rule[key]), (rule["id"], key)
        assert rule["help"]["markdown"].startswith(f"# {rule['id']} ")
        assert rule["defaultConfiguration"]["level"] in ("none", "note", "warning", "error")
    assert run.get("columnKind") in (None, "utf16CodeUnits", "unicodeCodePoints")
    for result in run["results"]:
        assert result["ruleId"] in ids
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("none", "note", "warning", "error")
        assert _is_text(result["message"])
        [location] = result["locations"]
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert isinstance(uri, str) and uri and "\\" not in uri
        region = physical["region"]
        for key in ("startLine", "startColumn", "endLine", "endColumn"):
            assert isinstance(region[key], int) and region[key] >= 1, key
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])


def test_sarif_structure(project):
    proc = jitlint(project, ".", "--output-format", "sarif")
    assert proc.returncode == 1
    log = json.loads(proc.stdout)
    validate_sarif(log)
    run = log["runs"][0]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == list(ALL_RULES)
    [result] = run["results"]
    assert result["ruleId"] == "JIT101" and result["level"] == "warning"
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "loop.py"},
        "region": {"startLine": 6, "startColumn": 9, "endLine": 6, "endColumn": 35},
    }
    help_text = run["tool"]["driver"]["rules"][result["ruleIndex"]]["help"]["text"]
    assert "## Why is this bad?" in help_text


def test_sarif_of_a_clean_tree_is_still_a_valid_log(project):
    proc = jitlint(project, "clean.py", "--output-format", "sarif")
    assert proc.returncode == 0
    log = json.loads(proc.stdout)
    validate_sarif(log)
    assert log["runs"][0]["results"] == []


def test_sarif_error_severity_and_outside_paths(tmp_path, project):
    (tmp_path / "broken.py").write_text("def f(:\n")
    proc = jitlint(project, str(tmp_path / "broken.py"), "--output-format", "sarif")
    log = json.loads(proc.stdout)
    validate_sarif(log)
    [result] = log["runs"][0]["results"]
    assert result["ruleId"] == "JIT000" and result["level"] == "error"
