"""The result cache: same findings as without it, invalidated by every input, robust to
corruption and to concurrent writers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from helpers import FIXTURES
from jitlint.cache import ResultCache
from jitlint.config import Settings
from jitlint.engine import all_diagnostics, iter_python_files, lint_files

LAMBDA_IN_LOOP = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x)
""")


def _lint(paths, cache_dir=None, settings=None):
    settings = settings or Settings(root=FIXTURES)
    files = list(iter_python_files([str(p) for p in paths], settings))
    cache = ResultCache(cache_dir, settings.fingerprint()) if cache_dir else None
    return all_diagnostics(lint_files(files, settings, jobs=1, cache=cache))


def test_cold_and_warm_runs_equal_an_uncached_run(tmp_path):
    uncached = _lint([FIXTURES])
    cold = _lint([FIXTURES], tmp_path / "cache")
    warm = _lint([FIXTURES], tmp_path / "cache")
    assert uncached == cold == warm and uncached
    assert (tmp_path / "cache" / ".gitignore").read_text().strip().endswith("*")


def test_a_changed_file_is_linted_again(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    f = project / "a.py"
    f.write_text(LAMBDA_IN_LOOP)
    cache = tmp_path / "cache"
    assert [d.code for d in _lint([project], cache)] == ["JIT101"]
    f.write_text(LAMBDA_IN_LOOP.replace("jax.jit(lambda v: v * 2.0)(x)", "x * 2.0"))
    assert _lint([project], cache) == []


def test_settings_are_part_of_the_key(tmp_path):
    f = tmp_path / "a.py"
    f.write_text(LAMBDA_IN_LOOP)
    cache = tmp_path / "cache"
    assert _lint([f], cache, Settings(root=tmp_path))
    assert _lint([f], cache, Settings(root=tmp_path, ignore=("JIT101",))) == []


def test_cross_module_results_follow_the_modules_they_depend_on(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "steps.py").write_text(textwrap.dedent("""\
        import functools
        import jax

        @functools.partial(jax.jit, static_argnums=1)
        def step(x, sizes):
            return x * len(sizes)
    """))
    (pkg / "train.py").write_text(textwrap.dedent("""\
        import jax.numpy as jnp
        from pkg.steps import step

        print(step(jnp.ones(3), [1, 2]))
    """))
    cache = tmp_path / "cache"
    first = _lint([pkg], cache, Settings(root=tmp_path))
    assert [(Path(d.path).name, d.code) for d in first] == [("train.py", "JIT301")]
    # The callee stops declaring the argument static: the caller's cached finding must go.
    steps = pkg / "steps.py"
    steps.write_text(steps.read_text().replace(", static_argnums=1", ""))
    assert _lint([pkg], cache, Settings(root=tmp_path)) == []


def test_a_changed_jit_wrapper_module_is_seen_by_its_users(tmp_path):
    """The project's jit wrapper lives in another module; the user's file never says jit."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text("import jax\n\n\ndef compiled(fn):\n    return jax.jit(fn)\n")
    (pkg / "train.py").write_text(textwrap.dedent("""\
        from pkg.helpers import compiled

        for i in range(3):
            print(compiled(lambda v: v + 1)(i))
    """))
    cache = tmp_path / "cache"
    for paths in ([pkg], [pkg / "train.py"]):
        assert [(Path(d.path).name, d.code) for d in _lint(paths, cache, Settings(root=tmp_path))] \
            == [("train.py", "JIT101")]
    # The wrapper becomes memoised (no fresh jit per call any more): the cached finding goes.
    helpers = pkg / "helpers.py"
    helpers.write_text(helpers.read_text().replace("def compiled", "@functools.cache\ndef compiled")
                       .replace("import jax", "import functools\nimport jax"))
    for paths in ([pkg / "train.py"], [pkg]):
        assert _lint(paths, cache, Settings(root=tmp_path)) == []


def test_corrupt_and_truncated_entries_are_rebuilt(tmp_path):
    cache = tmp_path / "cache"
    expected = _lint([FIXTURES / "fresh"], cache)
    entries = [p for p in cache.rglob("*") if p.is_file() and len(p.parent.name) == 2]
    assert entries
    for i, entry in enumerate(entries):
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2] if i % 2 else b"garbage")
    assert _lint([FIXTURES / "fresh"], cache) == expected


def test_foreign_pickles_are_refused(tmp_path):
    import pickle

    cache = ResultCache(tmp_path, "x")
    key = cache.key("a.py", b"x = 1\n")
    cache.put(key, ("placeholder",))
    entry = next(p for p in tmp_path.rglob("*") if p.is_file() and len(p.parent.name) == 2)
    entry.write_bytes(pickle.dumps(subprocess.Popen))  # would import and resolve a callable
    assert cache.get(key) is None


def test_concurrent_processes_share_one_cache(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "fresh", corpus)
    cache = tmp_path / "cache"
    cmd = [sys.executable, "-m", "jitlint", "--cache-dir", str(cache), "--output-format", "json",
           "-j", "1", str(corpus)]

    def run(_):
        return subprocess.run(cmd, capture_output=True, text=True)

    with ThreadPoolExecutor(max_workers=4) as pool:
        procs = list(pool.map(run, range(4)))
    outputs = {p.stdout for p in procs}
    assert len(outputs) == 1 and all(p.returncode == 1 for p in procs), [p.stderr for p in procs]
    assert not list(cache.rglob(".tmp-*"))
    again = run(0)
    assert again.stdout in outputs and json.loads(again.stdout)


def _build_slowly(log: str):
    with open(log, "a") as handle:
        handle.write("built\n")
    time.sleep(1.0)  # the other processes ask meanwhile
    return ("value", 42)


def _ask_shared(directory: str, log: str):
    return ResultCache(Path(directory), "shared").shared("k" * 40, lambda: _build_slowly(log))


def test_shared_entry_is_built_once_by_processes_asking_together(tmp_path):
    """ResultCache.shared: the first process builds under the lock, the others wait and read."""
    import multiprocessing

    log = tmp_path / "builds.log"
    with multiprocessing.get_context("fork").Pool(3) as pool:
        values = pool.starmap(_ask_shared, [(str(tmp_path / "cache"), str(log))] * 3)
    assert values == [("value", 42)] * 3
    assert log.read_text() == "built\n"
    assert _ask_shared(str(tmp_path / "cache"), str(log)) == ("value", 42)
    assert log.read_text() == "built\n", "later, read from the cache"
    assert not list((tmp_path / "cache").rglob(".lock-*")), "the lock file is removed"


def test_shared_entry_without_a_lock_is_not_built(tmp_path):
    """A cache that cannot be locked (here: its directory is a file) builds nothing: the caller
    does without rather than every process building the same entry."""
    (tmp_path / "cache").write_text("not a directory")
    built = []
    cache = ResultCache(tmp_path / "cache", "shared")
    assert cache.shared("k" * 40, lambda: built.append(1) or "value") is None and not built


def test_no_cache_writes_nothing(tmp_path, run_cli, monkeypatch):
    (tmp_path / "a.py").write_text(LAMBDA_IN_LOOP)
    monkeypatch.chdir(tmp_path)
    assert run_cli("--no-cache", "a.py")[0] == 1
    assert not (tmp_path / ".jitlint_cache").exists()
    assert run_cli("a.py")[0] == 1
    assert (tmp_path / ".jitlint_cache" / ".gitignore").exists()


def test_fixable_markers_come_from_the_cache_and_follow_the_file(tmp_path, run_cli, monkeypatch):
    """A warm run answers ``[*]`` from the cache without parsing the file again; an edited
    file is asked again."""
    import jitlint.fixes as fixes

    (tmp_path / "a.py").write_text(LAMBDA_IN_LOOP)
    monkeypatch.chdir(tmp_path)
    cold = run_cli("a.py")
    assert "JIT101 [*]" in cold[1]

    def no_parse(*args):
        raise AssertionError("the fixable markers of an unchanged file are cached")

    monkeypatch.setattr(fixes, "_offers_in", no_parse)
    assert run_cli("a.py") == cold
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    # the same finding, but the lambda reads a value the loop changes: no safe hoist
    (tmp_path / "a.py").write_text(LAMBDA_IN_LOOP.replace(
        "    x = jax.jit(lambda v: v * 2.0)(x)", "    scale = 2.0 * step\n    x = jax.jit(lambda v: v * scale)(x)"))
    code, out, _ = run_cli("a.py")
    assert code == 1 and "JIT101 " in out and "[*]" not in out


def test_paths_are_reported_as_given_whatever_the_cache_holds(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text(LAMBDA_IN_LOOP)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    settings = Settings(root=tmp_path)
    assert [d.path for d in _lint([tmp_path / "a.py"], cache, settings)] == [str(tmp_path / "a.py")]
    assert [d.path for d in _lint([Path("a.py")], cache, settings)] == ["a.py"]


def _calls(module: str, command: str) -> bytes:
    """A protocol-4 pickle of ``module``'s attribute ``os.system`` called with ``command``."""
    def text(value: str) -> bytes:
        data = value.encode()
        return b"\x8c" + bytes([len(data)]) + data + b"\x94"

    return b"\x80\x04" + text(module) + text("os.system") + b"\x93" + text(command) + b"\x85R."


def test_crafted_entries_cannot_run_code(tmp_path):
    # A dotted name reaches any module a permitted module imports: jitlint.cache.os.system.
    f = tmp_path / "a.py"
    f.write_text(LAMBDA_IN_LOOP)
    settings = Settings(root=tmp_path)
    cache_dir = tmp_path / "cache"
    expected = _lint([f], None, settings)
    cache = ResultCache(cache_dir, settings.fingerprint())
    key = cache.key(str(f), f.read_bytes())
    cache.put(key, ("placeholder",))
    entry = cache_dir / key[:2] / key[2:]
    assert entry.exists()
    for module in ("jitlint.cache", "jitlint.engine", "pathlib", "collections"):
        marker = tmp_path / f"ran-{module}"
        entry.write_bytes(_calls(module, f"touch {marker}"))
        assert cache.get(key) is None
        assert _lint([f], cache_dir, settings) == expected
        assert not marker.exists(), module


def test_a_value_that_cannot_be_pickled_is_not_cached_and_does_not_fail(tmp_path):
    cache = ResultCache(tmp_path, "x")
    key = cache.key("a.py", b"x = 1\n")
    cache.put(key, lambda: None)
    assert cache.get(key) is None
    assert not list(tmp_path.rglob(".tmp-*"))


def test_a_cache_dir_that_is_a_file_is_no_cache(tmp_path, run_cli):
    (tmp_path / "a.py").write_text(LAMBDA_IN_LOOP)
    (tmp_path / "cache").write_text("not a directory")
    code, out, err = run_cli("--cache-dir", str(tmp_path / "cache"), str(tmp_path / "a.py"))
    assert code == 1 and "JIT101" in out and err == ""
    assert (tmp_path / "cache").read_text() == "not a directory"
