"""The flake8 plugin, through a real ``flake8`` process: same findings as the CLI, and
flake8's own selection and ``# noqa`` machinery applies to them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import FIXTURES

FORMAT = "%(path)s|%(row)d|%(col)d|%(code)s|%(text)s"  # flake8 prints col + 1
LAMBDA_IN_LOOP = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x){comment}
""")

pytestmark = pytest.mark.skipif(shutil.which("flake8") is None and
                                subprocess.run([sys.executable, "-m", "flake8", "--version"],
                                               capture_output=True).returncode != 0,
                                reason="flake8 is not installed")


def flake8(*args: str, cwd: Path | None = None) -> list[tuple[str, int, int, str, str]]:
    proc = subprocess.run([sys.executable, "-m", "flake8", f"--format={FORMAT}", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    rows = []
    for line in proc.stdout.splitlines():
        path, row, col, code, text = line.split("|", 4)
        rows.append((str(Path(path)), int(row), int(col), code, text))
    return rows


def cli_json(*args: str, cwd: Path | None = None) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "jitlint", "check", "--output-format", "json",
                           "--exit-zero", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_plugin_is_registered():
    proc = subprocess.run([sys.executable, "-m", "flake8", "--version"], capture_output=True,
                          text=True)
    assert "jitlint" in proc.stdout


def test_findings_equal_the_cli_on_every_fixture():
    fixtures = str(FIXTURES)
    # flake8 prints columns 1-based (the plugin yields them 0-based, as flake8 expects).
    # (the CLI lints serially here: a second process pool beside flake8's only costs CPU)
    expected = {(str(Path(d["path"])), d["line"], d["column"], d["code"], d["message"])
                for d in cli_json("-j", "1", fixtures) if "cell" not in d}  # flake8 reads no notebooks
    actual = set(flake8("--isolated", "--select", "JIT", fixtures))
    assert expected, "the fixtures should have findings"
    # flake8 lints one file at a time; the plugin checks it against its project's index, so
    # the cross-module findings (fixtures/static/crossmod*) are the same as the CLI's on the tree.
    assert any("crossmod" in f[0] and f[3] == "JIT301" for f in expected)
    assert actual == expected


def _write(tmp_path: Path, name: str, comment: str = "") -> Path:
    path = tmp_path / name
    path.write_text(LAMBDA_IN_LOOP.format(comment=comment), encoding="utf-8")
    return path


def test_column_is_zero_based_and_message_is_the_clis(tmp_path):
    _write(tmp_path, "loop.py")
    [(path, row, col, code, text)] = flake8("--isolated", "--select", "JIT", "loop.py", cwd=tmp_path)
    [d] = cli_json("loop.py", cwd=tmp_path)
    assert (row, col, code, text) == (d["line"], d["column"], "JIT101", d["message"])
    assert col == 9  # "    x = jax.jit(": the 9th character; the plugin yielded 8 (0-based)


def test_select_and_extend_ignore(tmp_path):
    _write(tmp_path, "loop.py")
    assert [r[3] for r in flake8("--isolated", "--select", "JIT101", "loop.py", cwd=tmp_path)] == ["JIT101"]
    assert flake8("--isolated", "--select", "JIT102", "loop.py", cwd=tmp_path) == []
    assert flake8("--isolated", "--select", "JIT", "--extend-ignore", "JIT101", "loop.py",
                  cwd=tmp_path) == []
    assert flake8("--isolated", "--select", "JIT", "--extend-ignore", "JIT1", "loop.py",
                  cwd=tmp_path) == []


def test_per_file_ignores_from_a_flake8_config(tmp_path):
    _write(tmp_path, "train.py")
    _write(tmp_path, "other.py")
    (tmp_path / ".flake8").write_text("[flake8]\nselect = JIT\nper-file-ignores =\n    train.py: JIT101\n")
    assert [r[0] for r in flake8(".", cwd=tmp_path)] == ["other.py"]


NOQA_COMMENTS = [
    ("  # noqa", False),
    ("  # noqa: JIT101", False),
    ("  # noqa:JIT1", False),
    ("  # noqa: E501", True),
    ("  # noqa: JIT102", True),
]


@pytest.fixture(scope="module")
def noqa_runs(tmp_path_factory) -> dict[str, tuple[list[str], list[str]]]:
    """Per comment: the codes flake8 shows on a file with that comment, and with
    --disable-noqa (one flake8 run each over a file per comment)."""
    directory = tmp_path_factory.mktemp("noqa")
    names = {comment: _write(directory, f"loop{n}.py", comment).name
             for n, (comment, _) in enumerate(NOQA_COMMENTS)}
    shown, disabled = (flake8("--isolated", "--select", "JIT", *extra, *names.values(), cwd=directory)
                       for extra in ((), ("--disable-noqa",)))
    return {comment: ([r[3] for r in shown if r[0] == name], [r[3] for r in disabled if r[0] == name])
            for comment, name in names.items()}


@pytest.mark.parametrize("comment, shown", NOQA_COMMENTS)
def test_noqa_is_applied_by_flake8(noqa_runs, comment, shown):
    codes, codes_without_noqa = noqa_runs[comment]
    assert bool(codes) == shown
    # flake8's --disable-noqa shows it again: the plugin does not suppress on its own.
    assert codes_without_noqa == ["JIT101"]


def test_extra_jit_functions_option_and_pyproject(tmp_path):
    source = textwrap.dedent("""\
        from mylib import fastjit

        for step in range(5):
            y = fastjit(lambda v: v + 1)(step)
    """)
    (tmp_path / "wrapped.py").write_text(source)
    assert flake8("--isolated", "--select", "JIT", "wrapped.py", cwd=tmp_path) == []
    rows = flake8("--isolated", "--select", "JIT", "--jitlint-extra-jit-functions", "mylib.fastjit",
                  "wrapped.py", cwd=tmp_path)
    assert [r[3] for r in rows] == ["JIT101"]
    (tmp_path / "pyproject.toml").write_text('[tool.jitlint]\nextra-jit-functions = ["mylib.fastjit"]\n')
    rows = flake8("--isolated", "--select", "JIT", "wrapped.py", cwd=tmp_path)
    assert [r[3] for r in rows] == ["JIT101"]


def test_non_utf8_file_keeps_columns(tmp_path):
    source = "# -*- coding: latin-1 -*-\nimport jax\n\nfor s in range(5):\n    y = ('é', jax.jit(lambda v: v)(s))\n"
    (tmp_path / "latin.py").write_bytes(source.encode("latin-1"))
    [row] = flake8("--isolated", "--select", "JIT", "latin.py", cwd=tmp_path)
    [d] = cli_json("latin.py", cwd=tmp_path)
    assert (row[1], row[2]) == (d["line"], d["column"]) == (5, 15)


@pytest.mark.parametrize("argv, lints", [
    ([], True),
    (["--select", "B"], False),
    (["--select", "B", "--extend-select", "JIT101"], True),
    (["--extend-ignore", "JIT"], False),
    (["--select", "JIT", "--extend-ignore", "JIT1"], True),
])
def test_plugin_does_no_work_when_flake8_shows_no_jit_code(argv, lints, tmp_path, monkeypatch):
    # flake8 runs every installed plugin and filters afterwards: `flake8 --select B` in a venv
    # with jitlint installed must not pay for linting it throws away.
    from flake8.options.parse_args import parse_args

    import jitlint.flake8_plugin as plugin

    _, options = parse_args(["--isolated", *argv])
    monkeypatch.setattr(plugin.JitChecker, "any_code_selected", True)
    plugin.JitChecker.parse_options(options)
    calls = []
    monkeypatch.setattr(plugin, "shared_run", lambda *a, **k: calls.append(a))
    monkeypatch.setattr(plugin, "lint_in_project", lambda *a, **k: calls.append(a) or _NoFindings())
    path = _write(tmp_path, "loop.py")
    list(plugin.JitChecker(None, str(path), path.read_text().splitlines(True)).run())
    assert bool(calls) == lints


class _NoFindings:
    internal_error = None
    diagnostics = ()


# ---------------------------------------------------------------------------- flake8's workers
STEPS = textwrap.dedent("""\
    from functools import partial

    import jax


    @partial(jax.jit, static_argnums=1)
    def scale(x, factor):
        return x * factor
""")
TRAIN = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    from pkg.steps import scale

    x = jnp.ones(3)
    for i in range(4):
        x = scale(x, [1, 2])
        x = jax.jit(lambda v: v + 1)(x)
""")
BUILT = "linted the run's"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.jitlint]\n")
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "steps.py").write_text(STEPS)
    for n in range(4):  # enough files for flake8 to use both workers
        (root / "pkg" / f"train{n}.py").write_text(TRAIN)
    return root


def _flake8_process(root: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "flake8", "-j2", "-v", "--select", "JIT",
                             f"--format={FORMAT}", "."], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _rows_and_builds(proc: subprocess.Popen) -> tuple[list, int]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode in (0, 1) and "Traceback" not in err, err
    rows = sorted((str(Path(path)), int(row), int(col), code)
                  for path, row, col, code, _ in (line.split("|", 4) for line in out.splitlines()))
    return rows, err.count(BUILT)


def _cli_rows(root: Path) -> list:
    return sorted((str(Path(d["path"])), d["line"], d["column"], d["code"])
                  for d in cli_json("--no-cache", ".", cwd=root))


def test_workers_and_processes_share_one_lint_of_the_run(tmp_path):
    """flake8 -j2 in two processes at once: the project is indexed and linted once (flake8 -v
    logs each build), and the findings are the CLI's, cross-module ones included."""
    root = _project(tmp_path)
    expected = _cli_rows(root)
    assert {code for *_, code in expected} == {"JIT101", "JIT301"}
    first, second = _flake8_process(root), _flake8_process(root)
    (rows_1, builds_1), (rows_2, builds_2) = _rows_and_builds(first), _rows_and_builds(second)
    assert rows_1 == rows_2 == expected
    assert builds_1 + builds_2 == 1
    rows, builds = _rows_and_builds(_flake8_process(root))
    assert rows == expected and builds == 0, "an unchanged tree is read from the cache"


def test_an_edited_module_is_seen_by_the_shared_run(tmp_path):
    root = _project(tmp_path)
    _rows_and_builds(_flake8_process(root))
    (root / "pkg" / "steps.py").write_text(STEPS.replace("static_argnums=1", "static_argnums=()"))
    rows, builds = _rows_and_builds(_flake8_process(root))
    assert builds == 1 and rows == _cli_rows(root)
    assert "JIT301" not in {code for *_, code in rows}, "the callee has no static argument now"
