"""An agent's round trip with ``jitlint mcp``, through the MCP SDK's own stdio client.

    pip install 'jitlint[mcp]'
    python examples/mcp_round_trip.py

It starts ``python -m jitlint mcp DIR`` on a fresh directory holding a training loop that
jits a lambda on every step, then, as a coding agent would:

1. ``check`` finds JIT101 in the agent's in-memory buffer;
2. ``fix`` returns the fixed code, and ``check`` finds it clean;
3. ``confirm`` runs the script and counts JAX's compiles: 5 before the fix, 1 after
   (the file is fixed in between with ``fix`` and ``write: true``).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

TRAIN = """\
import jax
import jax.numpy as jnp

params = jnp.ones(3)
for step in range(5):
    params = jax.jit(lambda p: p * 0.9)(params)
print(params)
"""


async def call(session: ClientSession, tool: str, **arguments) -> dict:
    result = await session.call_tool(tool, arguments)
    if result.is_error:
        raise SystemExit(f"{tool} failed: {result.content[0].text}")
    return result.structured_content


def show_findings(findings: list[dict]) -> None:
    for f in findings:
        runtime = f" [{f['runtime']['verdict']}: {f['runtime']['detail']}]" if "runtime" in f else ""
        print(f"    {f['path']}:{f['line']}:{f['column']}: {f['code']} {f['message']}{runtime}")
    if not findings:
        print("    (no findings)")


def show_runs(runs: list[dict]) -> None:
    for run in runs:
        print(f"    `{run['command']}`: {run['jit_compiles']} jit compile(s)"
              + (f"; failed: {run['failure']}" if run["failure"] else ""))
        for count in run["compiles"]:
            print(f"      {count['function']} compiled {count['compiles']}x at {count['call']}")


async def round_trip(directory: Path) -> None:
    script = directory / "train.py"
    script.write_text(TRAIN)
    # The SDK passes the server only a safe part of the environment; PYTHONPATH lets this run
    # from a source checkout too.
    env = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else None
    server = StdioServerParameters(command=sys.executable, args=["-m", "jitlint", "mcp", str(directory)],
                                   env=env, cwd=str(directory))
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        print(f"tools: {', '.join(tool.name for tool in tools)}")

        print("\n1. check the agent's buffer (train.py, unsaved):")
        checked = await call(session, "check", source=TRAIN, filename="train.py")
        show_findings(checked["findings"])
        assert [f["code"] for f in checked["findings"]] == ["JIT101"]

        print("\n2. fix the buffer; the fixed code comes back with its diff:")
        fixed = await call(session, "fix", source=TRAIN, filename="train.py")
        [entry] = fixed["files"]
        print("".join(f"    {line}\n" for line in entry["diff"].splitlines()), end="")
        again = await call(session, "check", source=entry["source"], filename="train.py")
        print("   check of the fixed code:")
        show_findings(again["findings"])
        assert again["findings"] == []

        print("\n3. confirm: run train.py and count its compiles, before the fix...")
        before = await call(session, "confirm", path="train.py")
        show_findings(before["findings"])
        show_runs(before["runs"])
        written = await call(session, "fix", paths=["train.py"], write=True)
        print(f"   ...fix train.py on disk (written: {written['files'][0]['written']}), and after:")
        after = await call(session, "confirm", path="train.py")
        show_findings(after["findings"])
        show_runs(after["runs"])
        assert before["runs"][0]["jit_compiles"] == 5 and after["runs"][0]["jit_compiles"] == 1

        print(f"\ncompiles: {before['runs'][0]['jit_compiles']} before the fix, "
              f"{after['runs'][0]['jit_compiles']} after")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="jitlint-mcp-") as directory:
        anyio.run(round_trip, Path(os.path.realpath(directory)))


if __name__ == "__main__":
    main()
