"""Issue 28: ``jitlint mcp``, driven as an agent drives it: ``python -m jitlint mcp`` in a
subprocess, spoken to with the MCP SDK's own stdio client."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import ROOT

pytest.importorskip("mcp")

import anyio  # noqa: E402  (the SDK's dependency)
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from jitlint.output import JSON_KEYS  # noqa: E402
from jitlint.rules import ALL_RULES  # noqa: E402

REQUEST_TIMEOUT = 600  # seconds for one request: confirm imports JAX on a busy 2-core CI

LOOP = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    params = jnp.ones(3)
    for step in range(5):
        params = jax.jit(lambda p: p * 0.9)(params)
    print(params)
""")
HOISTED = "jitted_lambda = jax.jit(lambda p: p * 0.9)\n"


def talk(tmp_path: Path, roots: list[Path], conversation) -> None:
    """Start ``jitlint mcp ROOTS...`` and run ``await conversation(session)`` against it; the
    server's stderr is shown when the conversation fails."""
    log_path = tmp_path / "server.log"

    async def run() -> None:
        env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               "JAX_PLATFORMS": "cpu"}
        server = StdioServerParameters(command=sys.executable,
                                       args=["-m", "jitlint", "mcp", *map(str, roots)],
                                       env=env, cwd=str(roots[0]))
        with open(log_path, "w") as log:
            async with stdio_client(server, errlog=log) as (read, write), \
                    ClientSession(read, write, read_timeout_seconds=REQUEST_TIMEOUT) as session:
                await session.initialize()
                await conversation(session)

    try:
        anyio.run(run)
    except BaseException:
        print(f"--- the server's stderr:\n{log_path.read_text()}", file=sys.stderr)
        raise


async def call(session: ClientSession, tool: str, **arguments) -> dict:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    return result.structured_content


async def refused(session: ClientSession, tool: str, **arguments) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    return result.content[0].text


def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.is_file() and not p.is_symlink()}


# ---------------------------------------------------------------------------- tools
def test_the_tools_are_listed_with_their_schemas(tmp_path):
    async def conversation(session):
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert set(listed) == {"check", "explain", "fix", "confirm"}
        for tool in listed.values():
            assert tool.description and tool.input_schema["type"] == "object"
            assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        assert {"paths", "source", "filename", "select", "ignore"} <= \
            set(listed["check"].input_schema["properties"])
        assert listed["explain"].input_schema["required"] == ["rule"]
        assert listed["fix"].input_schema["properties"]["write"]["default"] is False
        assert listed["confirm"].input_schema["properties"]["timeout"]["anyOf"][0]["exclusiveMinimum"] == 0
        # Findings carry the JSON output's keys.
        finding = listed["check"].output_schema["$defs"]["Finding"]
        assert set(finding["required"]) == set(JSON_KEYS)
        assert listed["check"].annotations.read_only_hint is True
        assert listed["confirm"].annotations.read_only_hint is False
        assert listed["confirm"].annotations.destructive_hint is True

        by_code = await call(session, "explain", rule="JIT101")
        assert by_code["documentation"] == ALL_RULES["JIT101"].doc()  # as `jitlint rule` prints it
        assert by_code["name"] == "jit-of-lambda" and by_code["fixable"] is True
        assert await call(session, "explain", rule="jit-of-lambda") == by_code

    talk(tmp_path, [tmp_path], conversation)


def test_a_buffer_is_checked_fixed_and_clean_without_touching_the_disk(tmp_path):

    async def conversation(session):
        checked = await call(session, "check", source=LOOP, filename="train.py")
        [finding] = checked["findings"]
        assert finding["code"] == "JIT101" and finding["line"] == 6 and finding["fixable"] is True
        assert finding["path"] == str(tmp_path / "train.py")
        assert set(JSON_KEYS) <= set(finding) and checked["errors"] == []

        fixed = await call(session, "fix", source=LOOP, filename="train.py")
        [entry] = fixed["files"]
        assert fixed["fixes"] == 1 and entry["written"] is False
        assert HOISTED in entry["source"] and "+    params = jitted_lambda(params)" in entry["diff"]
        assert [(a["code"], a["line"]) for a in entry["applied"]] == [("JIT101", 6)]

        again = await call(session, "check", source=entry["source"], filename="train.py")
        assert again["findings"] == []

        # --select / --ignore as on the command line.
        ignored = await call(session, "check", source=LOOP, filename="train.py", ignore=["JIT1"])
        assert ignored["findings"] == []

    talk(tmp_path, [tmp_path], conversation)
    assert os.listdir(tmp_path) == ["server.log"]


def test_confirm_measures_the_compiles_before_and_after_the_fix(tmp_path):
    pytest.importorskip("jax")
    script = tmp_path / "train.py"
    script.write_text(LOOP)

    async def conversation(session):
        before = await call(session, "confirm", path="train.py")
        [finding] = before["findings"]
        assert finding["code"] == "JIT101"
        assert finding["runtime"]["verdict"] == "confirmed" and finding["runtime"]["compiles"] == 5
        [run] = before["runs"]
        assert run["failure"] is None and run["exit_code"] == 0
        assert run["jit_compiles"] == 5
        assert [(c["function"], c["compiles"], c["call"]) for c in run["compiles"]] == \
            [("<lambda>", 5, f"{script}:6")]

        fixed = await call(session, "fix", paths=["train.py"], write=True)
        assert [entry["written"] for entry in fixed["files"]] == [True]

        after = await call(session, "confirm", path=str(script))
        assert after["findings"] == []
        [run] = after["runs"]
        assert run["failure"] is None and run["jit_compiles"] == 1
        assert [(c["function"], c["compiles"]) for c in run["compiles"]] == [("<lambda>", 1)]

    talk(tmp_path, [tmp_path], conversation)
    assert HOISTED in script.read_text()


# ---------------------------------------------------------------------------- errors
def test_bad_arguments_are_tool_errors_and_the_server_keeps_serving(tmp_path):
    (tmp_path / "train.py").write_text(LOOP)

    async def conversation(session):
        assert "paths" in await refused(session, "check", paths=5)  # not the schema's type
        assert "unknown rule code 'JIT999'" in await refused(session, "check", paths=["train.py"],
                                                             select=["JIT999"])
        assert "no such file or directory" in await refused(session, "check", paths=["nope.py"])
        assert "`source` needs a `filename`" in await refused(session, "check", source=LOOP)
        assert "unknown rule 'JIT999'" in await refused(session, "explain", rule="JIT999")
        assert "greater than 0" in await refused(session, "confirm", path="train.py", timeout=-1)
        assert "`path`" in await refused(session, "confirm")
        assert "not a Python script" in await refused(session, "confirm", path=".")
        assert "`write` is for files" in await refused(session, "fix", source=LOOP,
                                                       filename="train.py", write=True)
        assert "Unknown tool: lint" in await refused(session, "lint", paths=["train.py"])
        # ...and the next request is served.
        checked = await call(session, "check", paths=["train.py"])
        assert [f["code"] for f in checked["findings"]] == ["JIT101"]

    talk(tmp_path, [tmp_path], conversation)


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_nothing_outside_the_roots_is_read_or_written(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    for path in (root / "a.py", root / "b.py", outside / "c.py"):
        path.write_text(LOOP)
    (root / "link.py").symlink_to(outside / "c.py")
    untouched = snapshot(outside)

    async def conversation(session):
        # write=true touches only the named file.
        fixed = await call(session, "fix", paths=["a.py"], write=True)
        assert [(entry["path"], entry["written"]) for entry in fixed["files"]] == \
            [(str(root / "a.py"), True)]
        assert HOISTED in (root / "a.py").read_text() and (root / "b.py").read_text() == LOOP

        for path in (str(outside / "c.py"), "../outside/c.py", "link.py", str(outside)):
            for tool in ("check", "fix"):
                assert "outside the directories this server may touch" in \
                    await refused(session, tool, paths=[path], **({"write": True} if tool == "fix" else {}))
        assert "outside the directories" in await refused(session, "check", source=LOOP,
                                                          filename=str(outside / "new.py"))
        assert "outside the directories" in await refused(session, "confirm", command="python c.py",
                                                          cwd=str(outside))

        # A directory: a link found in it that leads out of the roots is left out.
        everything = await call(session, "fix", paths=["."], write=True)
        assert [entry["path"] for entry in everything["files"]] == [str(root / "b.py")]
        assert any("link.py: left out" in warning for warning in everything["warnings"])

    talk(tmp_path, [root], conversation)
    assert snapshot(outside) == untouched


def test_without_the_sdk_jitlint_mcp_says_how_to_install_it(monkeypatch, run_cli):
    monkeypatch.delitem(sys.modules, "jitlint.mcp_server", raising=False)
    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)  # as if not installed
    code, out, err = run_cli("mcp")
    assert code == 2 and out == ""
    assert "`jitlint mcp` needs the MCP SDK" in err and "pip install 'jitlint[mcp]'" in err


def test_a_root_that_is_not_a_directory_is_a_usage_error(tmp_path, run_cli):
    code, out, err = run_cli("mcp", str(tmp_path / "nope"))
    assert code == 2 and out == "" and f"jitlint: error: {tmp_path / 'nope'}: not a directory" in err


def test_the_linter_never_imports_the_sdk():
    probe = ("import sys, jitlint.cli, jitlint.workspace\n"
             "jitlint.cli.main(['rules'])\n"
             "sdk = sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.'))\n"
             "sys.exit(f'imported {sdk}' if sdk else 0)")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, timeout=REQUEST_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
