"""The CLI contract: exit codes, selection, suppression, config, bad input, JSON schema."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

LAMBDA_IN_LOOP = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x)
""")


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_findings_exit_1_and_concise_format(tmp_path, run_cli):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    code, out, _ = run_cli(str(f))
    assert code == 1
    assert out == (f"{f}:6:9: JIT101 [*] jax.jit of a lambda inside a loop compiles on every "
                   f"iteration; create the function once and hoist the jit out of the loop\n"
                   f"Found 1 finding (1 fixable with `jitlint check --fix`).\n")


def test_check_subcommand_is_the_default(tmp_path, run_cli):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    assert run_cli("check", str(f))[1] == run_cli(str(f))[1]


def test_clean_file_exits_0(tmp_path, run_cli):
    f = write(tmp_path / "a.py", "import jax\n\n@jax.jit\ndef f(x):\n    return x\n")
    assert run_cli(str(f)) == (0, "All checks passed!\n", "")


def test_exit_zero(tmp_path, run_cli):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    code, out, _ = run_cli(str(f), "--exit-zero")
    assert code == 0 and "JIT101" in out


def test_json_schema_is_stable(tmp_path, run_cli):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    code, out, _ = run_cli(str(f), "--output-format", "json")
    [item] = json.loads(out)
    assert list(item) == ["path", "line", "column", "end_line", "end_column", "code", "name",
                          "message", "severity", "fix"]
    assert item["fix"] == {"applicability": "safe", "message": "build `jitted_lambda` once above the loop"}
    assert item["line"] == 6 and item["column"] == 9 and item["end_line"] == 6
    assert item["end_column"] == 9 + len("jax.jit(lambda v: v * 2.0)")
    assert item["code"] == "JIT101" and item["name"] == "jit-of-lambda"
    assert item["severity"] == "warning"


def test_select_ignore_and_extend_select_by_prefix(tmp_path, run_cli):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    assert run_cli(str(f), "--select", "JIT2")[0] == 0
    assert run_cli(str(f), "--select", "JIT1")[0] == 1
    assert run_cli(str(f), "--ignore", "JIT101")[0] == 0
    assert run_cli(str(f), "--ignore", "JIT1", "--extend-select", "JIT101")[0] == 1
    assert run_cli(str(f), "--select", "JIT2", "--extend-select", "JIT10")[0] == 1


def test_statistics(tmp_path, run_cli):
    write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    write(tmp_path / "b.py", LAMBDA_IN_LOOP)
    code, out, _ = run_cli(str(tmp_path), "--statistics")
    assert code == 1
    assert out == "2\tJIT101\tjit-of-lambda\n", "in a text format, only the table (as ruff)"
    code, out, _ = run_cli(str(tmp_path), "--statistics", "--output-format", "full")
    assert out == "2\tJIT101\tjit-of-lambda\n"


def test_statistics_with_a_machine_format_keeps_stdout_parsable(tmp_path, run_cli):
    write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    code, out, err = run_cli(str(tmp_path), "--statistics", "--output-format", "json")
    assert [item["code"] for item in json.loads(out)] == ["JIT101"]
    assert err == "1\tJIT101\tjit-of-lambda\n"


@pytest.mark.parametrize("comment, silenced", [
    ("  # noqa", True),
    ("  # noqa: JIT101", True),
    ("  # NOQA:JIT102,JIT101", True),
    ("  # noqa: JIT1", True),
    ("  # noqa: JIT102", False),
    ("  # a comment", False),
])
def test_line_noqa(tmp_path, run_cli, comment, silenced):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP.rstrip("\n") + comment + "\n")
    assert run_cli(str(f))[0] == (0 if silenced else 1)


def test_file_level_noqa(tmp_path, run_cli):
    f = write(tmp_path / "a.py", "# jitlint: noqa\n" + LAMBDA_IN_LOOP)
    assert run_cli(str(f))[0] == 0


def test_directories_recurse_and_skip_default_excludes(tmp_path, run_cli):
    write(tmp_path / "pkg" / "a.py", LAMBDA_IN_LOOP)
    for skipped in (".venv", "build", "__pycache__", "node_modules", ".git"):
        write(tmp_path / skipped / "b.py", LAMBDA_IN_LOOP)
    code, out, _ = run_cli(str(tmp_path))
    assert code == 1 and out.count("JIT101") == 1 and "pkg" in out


def test_no_path_lints_the_current_directory(tmp_path, run_cli, monkeypatch):
    write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli()
    assert code == 1 and out.startswith("a.py:6:9: JIT101") or out.startswith("./a.py:6:9")


def test_missing_path_is_an_error_but_others_are_linted(tmp_path, run_cli):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    code, out, err = run_cli(str(tmp_path / "missing.py"), str(f))
    assert code == 2
    assert "missing.py: no such file or directory" in err
    assert "JIT101" in out


@pytest.mark.parametrize("extra", [(), ("--statistics",), ("--show-fixes",), ("--fix",),
                                   ("--diff",), ("--output-format", "full")])
def test_no_success_line_when_an_error_occurred(tmp_path, run_cli, extra):
    """A missing path (exit 2) with nothing found elsewhere must not say all is well."""
    clean = write(tmp_path / "clean.py", "x = 1\n")
    code, out, err = run_cli(str(tmp_path / "missing.py"), str(clean), *extra)
    assert code == 2 and "no such file or directory" in err
    assert "All checks passed!" not in out + err
    code, out, err = run_cli(str(tmp_path / "missing.py"), *extra)
    assert code == 2 and "All checks passed!" not in out + err


def test_an_internal_error_is_no_success_either(tmp_path, run_cli, monkeypatch):
    from jitlint import engine

    clean = write(tmp_path / "clean.py", "import jax\nf = jax.jit(abs)\n")

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(engine, "_run_rules", broken)
    code, out, err = run_cli("--no-cache", "-j1", str(clean))
    assert code == 2 and "internal error" in err
    assert "All checks passed!" not in out


def test_an_unparsable_file_is_a_finding_not_an_error(tmp_path, run_cli):
    """JIT000 keeps its meaning: exit 1 with a summary, like any finding."""
    broken = write(tmp_path / "broken.py", "def f(:\n")
    code, out, _ = run_cli(str(broken))
    assert code == 1 and "JIT000" in out and out.endswith("Found 1 finding.\n")


def test_config_from_nearest_pyproject(tmp_path, run_cli):
    write(tmp_path / "pyproject.toml", textwrap.dedent("""\
        [tool.jitlint]
        ignore = ["JIT101"]
        exclude = ["generated"]
        per-file-ignores = { "tests/*" = ["JIT102"] }
        extra-jit-functions = ["mylib.compile"]
    """))
    write(tmp_path / "src" / "a.py", LAMBDA_IN_LOOP)
    write(tmp_path / "generated" / "b.py", LAMBDA_IN_LOOP.replace("lambda", "lambda").replace(
        "jax.jit(lambda v: v * 2.0)", "jax.jit(jax.grad(jnp.sum))"))
    write(tmp_path / "src" / "c.py", textwrap.dedent("""\
        import jax.numpy as jnp
        from mylib import compile

        x = jnp.ones(3)
        for _ in range(5):
            x = compile(jnp.sin.__call__ if False else (lambda v: v))(x)
            x = compile(__import__("functools").partial(jnp.add, 1.0))(x)
    """))
    code, out, _ = run_cli(str(tmp_path / "src"), str(tmp_path / "generated"))
    # JIT101 ignored, generated/ excluded; the configured jit wrapper is recognised.
    assert "JIT101" not in out and "b.py" not in out
    assert code == 0 or "c.py" in out


def test_extra_jit_function_is_recognised(tmp_path, run_cli):
    f = write(tmp_path / "a.py", textwrap.dedent("""\
        import jax.numpy as jnp
        from mylib.compilation import fast_jit

        x = jnp.ones(3)
        for _ in range(5):
            x = fast_jit(lambda v: v * 2.0)(x)
    """))
    assert run_cli(str(f))[0] == 0
    code, out, _ = run_cli(str(f), "--extra-jit-function", "mylib.compilation.fast_jit")
    assert code == 1 and "mylib.compilation.fast_jit of a lambda" in out


def test_per_file_ignores(tmp_path, run_cli):
    write(tmp_path / "pyproject.toml", '[tool.jitlint]\nper-file-ignores = { "tests/*" = ["JIT1"] }\n')
    write(tmp_path / "tests" / "a.py", LAMBDA_IN_LOOP)
    write(tmp_path / "src" / "a.py", LAMBDA_IN_LOOP)
    code, out, _ = run_cli(str(tmp_path))
    assert out.count("JIT101") == 1 and "src" in out


@pytest.mark.parametrize("config, message", [
    ('[tool.jitlint]\nselekt = ["JIT1"]\n', "unknown key(s) in [tool.jitlint]: selekt"),
    ('[tool.jitlint]\nselect = "JIT1"\n', "select must be a list of strings"),
    ('[tool.jitlint]\nignore = ["E501"]\n', "'E501' is not a rule code or prefix"),
    ('[tool.jitlint\n', "cannot read"),
])
def test_bad_config_exits_2(tmp_path, run_cli, config, message):
    write(tmp_path / "pyproject.toml", config)
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    code, out, err = run_cli(str(f))
    assert code == 2 and message in err and out == ""


def test_bad_cli_code_exits_2(tmp_path, run_cli):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    code, _, err = run_cli(str(f), "--select", "B950")
    assert code == 2 and "'B950' is not a rule code" in err


def test_rules_and_rule_commands(run_cli):
    code, out, _ = run_cli("rules")
    assert code == 0 and "JIT101  jit-of-lambda" in out and "JIT000" in out
    code, out, _ = run_cli("rule", "jit101")
    assert code == 0 and out.startswith("# JIT101 jit-of-lambda")
    assert "compiles 5 times in 5 calls" in out and "## Use instead" in out
    code, _, err = run_cli("rule", "JIT999")
    assert code == 2 and "unknown rule" in err


# ------------------------------------------------------------------ bad input
def test_syntax_error_is_jit000_and_other_files_are_linted(tmp_path, run_cli):
    bad = write(tmp_path / "bad.py", "def f(:\n    pass\n")
    good = write(tmp_path / "good.py", LAMBDA_IN_LOOP)
    code, out, _ = run_cli(str(bad), str(good), "--output-format", "json")
    findings = {d["code"]: d for d in json.loads(out)}
    assert code == 1
    assert findings["JIT000"]["line"] == 1 and findings["JIT000"]["column"] == 7
    assert "syntax error: invalid syntax" in findings["JIT000"]["message"]
    assert findings["JIT000"]["severity"] == "error"
    assert "JIT101" in findings


def test_syntax_error_in_a_file_without_jit_is_still_reported(tmp_path, run_cli):
    bad = write(tmp_path / "bad.py", "x = (1,\n")
    code, out, _ = run_cli(str(bad))
    assert code == 1 and "JIT000" in out and "never closed" in out


@pytest.mark.parametrize("data, reason", [
    (b"\x00\x01\x02binary\xff", "binary file"),
    ("x = 'caf\u00e9'\n".encode("latin-1"), "not valid utf-8 text"),
    (b"# -*- coding: klingon -*-\nx = 1\n", "encoding"),
])
def test_unreadable_text_is_jit000(tmp_path, run_cli, data, reason):
    f = write(tmp_path / "a.py", data)
    code, out, err = run_cli(str(f))
    assert code == 1 and "JIT000" in out and reason in out and err == ""


@pytest.mark.parametrize("data", [
    "# -*- coding: latin-1 -*-\n" + LAMBDA_IN_LOOP.replace("x = jnp", "# caf\u00e9\nx = jnp"),
    "\ufeff" + LAMBDA_IN_LOOP,
    LAMBDA_IN_LOOP.replace("\n", "\r\n"),
])
def test_encodings_bom_and_crlf_are_honoured(tmp_path, run_cli, data):
    encoding = "latin-1" if "latin-1" in data else "utf-8"
    f = write(tmp_path / "a.py", data.encode(encoding))
    code, out, _ = run_cli(str(f), "--output-format", "json")
    [item] = json.loads(out)
    offset = 2 if "latin-1" in data else 0
    assert (item["code"], item["line"], item["column"]) == ("JIT101", 6 + offset, 9)


def test_static_linting_never_imports_jax(tmp_path):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    script = ("import sys; from jitlint.cli import main; rc = main([sys.argv[1]]); "
              "assert 'jax' not in sys.modules, 'jax imported'; sys.exit(rc)")
    proc = subprocess.run([sys.executable, "-c", script, str(f)], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert "JIT101" in proc.stdout


def test_console_script_runs(tmp_path):
    f = write(tmp_path / "a.py", LAMBDA_IN_LOOP)
    proc = subprocess.run([sys.executable, "-m", "jitlint", str(f)], capture_output=True, text=True)
    assert proc.returncode == 1 and "JIT101" in proc.stdout


def test_parallel_and_serial_runs_agree(tmp_path):
    from helpers import FIXTURES, actual_findings
    from jitlint.engine import all_diagnostics

    serial = all_diagnostics(actual_findings([FIXTURES], jobs=1))
    parallel = all_diagnostics(actual_findings([FIXTURES], jobs=2))
    unfiltered = all_diagnostics(actual_findings([FIXTURES], jobs=1, prefilter=False))
    assert serial == parallel == unfiltered and serial
