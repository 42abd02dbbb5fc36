"""``jitlint server`` driven as an editor drives it, step by step, with what it answers.

    python benchmarks/lsp_demo.py [--within SECONDS]

Starts ``python -m jitlint server`` over stdio, opens an unsaved buffer with a jit of a lambda
in a loop, and prints: the JIT101 diagnostic (and how long it took: at most ``--within``
seconds, 2 by default), the code
actions offered for it, the hover text, the diagnostics after the safe fix is applied (none)
and the server's exit code after shutdown/exit (0).  Exits 1 if any of that does not hold.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from lsprotocol import types

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_latency import EditorSession, project_environment, server_command  # noqa: E402

BUFFER = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x)
""")


def where(range_: types.Range) -> str:
    return f"{range_.start.line + 1}:{range_.start.character + 1}"


async def demo(within: float) -> bool:
    work = Path(tempfile.mkdtemp(prefix="jitlint-lsp-demo-"))
    (work / "pyproject.toml").write_text("[tool.jitlint]\n")
    uri = (work / "train.py").as_uri()  # never saved: the buffer is all there is
    os.environ.update(project_environment())
    session = EditorSession()
    await session.start(*server_command(), cwd=str(work))
    ok = True

    start = time.perf_counter()
    session.open(uri, BUFFER)
    [diagnostic] = await session.diagnostics(uri)
    elapsed = time.perf_counter() - start
    ok &= elapsed <= within and str(diagnostic.code).startswith("JIT1")
    print(f"1. diagnostic on the unsaved buffer after {1000 * elapsed:.0f} ms "
          f"(limit {1000 * within:.0f} ms):")
    print(f"   train.py:{where(diagnostic.range)} {diagnostic.code} {diagnostic.message}")
    print(f"   docs: {diagnostic.code_description.href}")
    for related in diagnostic.related_information or ():
        print(f"   related: train.py:{where(related.location.range)} {related.message}")

    actions = await session.code_actions(uri, diagnostic)
    print("2. code actions:")
    for action in actions:
        print(f"   [{action.kind}] {action.title}")
    fix = next((a for a in actions if a.kind == types.CodeActionKind.QuickFix and a.is_preferred), None)
    ok &= fix is not None

    hover = await session.hover(uri, diagnostic.range.start)
    text = hover.contents.value if hover is not None else ""
    ok &= text.startswith(f"# {diagnostic.code} ")
    print("3. hover (the first lines of `jitlint rule " f"{diagnostic.code}`):")
    for line in text.splitlines()[:4]:
        print(f"   | {line}")

    if fix is not None:
        session.apply(uri, fix.edit.changes[uri])
        remaining = await session.diagnostics(uri)
        ok &= remaining == []
        print(f"4. after applying '{fix.title}': {len(remaining)} diagnostics; the buffer is now:")
        for line in session.texts[uri].splitlines():
            print(f"   | {line}")

    code = await session.close()
    ok &= code == 0
    print(f"5. shutdown, exit: the server exited with code {code}")
    print("OK" if ok else "FAILED")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--within", type=float, default=2.0,
                        help="seconds from didOpen to the first diagnostics (default 2)")
    return 0 if asyncio.run(demo(parser.parse_args().within)) else 1


if __name__ == "__main__":
    sys.exit(main())
