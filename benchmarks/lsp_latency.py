"""How long an editor waits for jitlint's findings after an edit (``jitlint server``).

    python benchmarks/lsp_latency.py [--lines 1000] [--edits 15] [--file PATH]

Starts ``python -m jitlint server`` as an editor would (stdio), opens an unsaved buffer of a
generated JAX training script (about ``--lines`` lines: models, losses, jitted steps, an epoch
loop with one jit of a lambda in it; or, with ``--file``, that file's text at its own path, in
its own project), waits for its first diagnostics (cold: the first lint, and the summaries of
the project's modules it imports), then edits one line ``--edits`` times (a blank line between
two top-level statements becomes a comment) and measures each time from the didChange
notification to the publishDiagnostics that answers it (warm).  The server's debounce is
part of that time.  Prints the cold time and the median, min and max of the warm ones, and
the server's CPU time per edit (on Linux, from /proc): on a busy machine the wall-clock time
includes waiting for a CPU, the CPU time does not.

``EditorSession`` is a small LSP client (pygls) that benchmarks/lsp_demo.py shares.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional, Sequence

from lsprotocol import types
from pygls.lsp.client import LanguageClient

TIMEOUT = 60.0  # seconds for any one answer: generous, a busy machine must not fail the run

HEAD = '''"""A generated training script (benchmarks/lsp_latency.py): models, losses, jitted steps."""
import functools

import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-3)
'''
BLOCK = '''

class MLP{i}:
    """Block {i}: a two-layer perceptron."""

    def __init__(self, key, sizes=(64, 64, 10)):
        keys = jax.random.split(key, len(sizes))
        self.params = [jax.random.normal(k, (m, n)) * 0.01
                       for k, m, n in zip(keys, sizes[:-1], sizes[1:])]

    @staticmethod
    def apply(params, x):
        for w in params[:-1]:
            x = jax.nn.relu(x @ w)
        return x @ params[-1]


def loss_{i}(params, x, y):
    logits = MLP{i}.apply(params, x)
    labels = jax.nn.one_hot(y, logits.shape[-1])
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * labels, axis=-1))


@jax.jit
def update_{i}(params, opt_state, x, y):
    grads = jax.grad(loss_{i})(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


@functools.partial(jax.jit, static_argnames=("training",))
def evaluate_{i}(params, x, y, training=False):
    logits = MLP{i}.apply(params, x)
    accuracy = jnp.mean(jnp.argmax(logits, -1) == y)
    return accuracy if not training else accuracy * 0.0


def batches_{i}(x, y, batch_size=128):
    for start in range(0, x.shape[0] - batch_size + 1, batch_size):
        yield x[start:start + batch_size], y[start:start + batch_size]


def train_epoch_{i}(params, opt_state, x, y):
    total = 0.0
    for xb, yb in batches_{i}(x, y):
        params, opt_state = update_{i}(params, opt_state, xb, yb)
        total += float(evaluate_{i}(params, xb, yb))
    return params, opt_state, total
'''
TAIL = '''

def main(x, y, epochs=10):
    params = MLP0(jax.random.PRNGKey(0)).params
    opt_state = optimizer.init(params)
    for epoch in range(epochs):
        params, opt_state, total = train_epoch_0(params, opt_state, x, y)
        decay = jax.jit(lambda p: jax.tree_util.tree_map(lambda w: w * 0.999, p))
        params = decay(params)
    return params
'''


def training_script(lines: int = 1000) -> str:
    """A JAX training script of about ``lines`` lines with one JIT101 (in ``main``)."""
    parts, i = [HEAD], 0
    while sum(part.count("\n") for part in parts) + TAIL.count("\n") < lines:
        parts.append(BLOCK.format(i=i))
        i += 1
    return "".join(parts) + TAIL


class EditorSession:
    """An editor's side of the protocol: open, edit, ask for code actions and hover, and wait
    for the diagnostics the server publishes (by the document version they answer)."""

    def __init__(self) -> None:
        self.client = LanguageClient("jitlint-bench", "1")
        self.published: dict[str, list[types.PublishDiagnosticsParams]] = {}
        self.arrived = asyncio.Event()
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self.log: list[str] = []

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, []).append(params)
            self.arrived.set()

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams) -> None:
            self.log.append(params.message)

    async def start(self, *command: str, cwd: Optional[str] = None) -> None:
        await self.client.start_io(*command, cwd=cwd)
        await asyncio.wait_for(self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), process_id=os.getpid())), TIMEOUT)
        self.client.initialized(types.InitializedParams())

    def open(self, uri: str, text: str) -> None:
        self.versions[uri], self.texts[uri] = 1, text
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))

    def replace_all(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.texts[uri] = text
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [types.TextDocumentContentChangeWholeDocument(text=text)]))

    def apply(self, uri: str, edits: Sequence[types.TextEdit]) -> None:
        """Apply a workspace edit's text edits (as the editor would) and tell the server."""
        lines = self.texts[uri].splitlines(keepends=True)

        def offset(position: types.Position) -> int:
            return sum(len(line) for line in lines[:position.line]) + position.character

        text = self.texts[uri]
        for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                           reverse=True):
            text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
        self.replace_all(uri, text)

    async def diagnostics(self, uri: str, version: Optional[int] = None,
                          timeout: float = TIMEOUT) -> list[types.Diagnostic]:
        """The diagnostics published for ``uri`` at ``version`` (default: the current one)."""
        version = self.versions[uri] if version is None else version
        deadline = time.monotonic() + timeout
        while True:
            for params in self.published.get(uri, ()):
                if params.version == version:
                    return list(params.diagnostics)
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), max(deadline - time.monotonic(), 0.001))

    async def code_actions(self, uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
        return await asyncio.wait_for(self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
                context=types.CodeActionContext(diagnostics=[diagnostic]))), TIMEOUT) or []

    async def hover(self, uri: str, position: types.Position) -> Optional[types.Hover]:
        return await asyncio.wait_for(self.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position)), TIMEOUT)

    def server_cpu_seconds(self) -> Optional[float]:
        """The server process's user + system CPU time so far (Linux), else None."""
        server = self.client._server  # pygls keeps the process here
        try:
            fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError, AttributeError):
            return None

    async def close(self) -> Optional[int]:
        """shutdown, exit; the server's exit code."""
        await asyncio.wait_for(self.client.shutdown_async(None), TIMEOUT)
        self.client.exit(None)
        server = self.client._server  # pygls keeps the process here
        code = await asyncio.wait_for(server.wait(), TIMEOUT) if server is not None else None
        await self.client.stop()
        return code


def server_command() -> list[str]:
    return [sys.executable, "-m", "jitlint", "server"]


def project_environment() -> dict:
    """The server runs the jitlint of this checkout."""
    root = str(Path(__file__).resolve().parent.parent)
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))


def edited(text: str, label: str) -> str:
    """``text`` with the blank line nearest its middle that precedes a top-level statement
    turned into the comment ``# label``."""
    lines = text.split("\n")
    blanks = [i for i in range(len(lines) - 1) if not lines[i].strip() and lines[i + 1][:1].isalpha()]
    middle = min(blanks, key=lambda i: abs(i - len(lines) // 2))
    return "\n".join([*lines[:middle], f"# {label}", *lines[middle + 1:]])


async def measure(text: str, path: Path, edits: int) -> dict:
    uri = path.as_uri()  # never written: the buffer is unsaved
    session = EditorSession()
    os.environ.update(project_environment())
    # Started in an empty directory: ``python -m`` puts the working directory first on
    # sys.path, where a project's own typing.py (jax/_src has one) would shadow the stdlib.
    await session.start(*server_command(), cwd=tempfile.mkdtemp(prefix="jitlint-lsp-cwd-"))
    start = time.perf_counter()
    session.open(uri, text)
    first = await session.diagnostics(uri)
    cold = time.perf_counter() - start
    warm, cpu = [], []
    for i in range(edits):
        edit = edited(text, f"edit {i}")
        cpu_before = session.server_cpu_seconds()
        start = time.perf_counter()
        session.replace_all(uri, edit)
        found = await session.diagnostics(uri)
        warm.append(time.perf_counter() - start)
        cpu_after = session.server_cpu_seconds()
        if cpu_before is not None and cpu_after is not None:
            cpu.append(cpu_after - cpu_before)
        assert [d.code for d in found] == [d.code for d in first], found
    code = await session.close()
    return {"lines": text.count("\n"), "cold": cold, "warm": warm, "cpu": cpu,
            "codes": [d.code for d in first], "exit": code}


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--edits", type=int, default=15)
    parser.add_argument("--file", type=Path, help="lint this file's text instead (not written)")
    args = parser.parse_args(argv)
    if args.file is not None:
        path, text = args.file.resolve(), args.file.read_text(encoding="utf-8")
    else:
        path = Path(tempfile.mkdtemp(prefix="jitlint-lsp-")) / "train.py"
        (path.parent / "pyproject.toml").write_text("[tool.jitlint]\n")
        text = training_script(args.lines)
    result = asyncio.run(measure(text, path, args.edits))
    warm_ms = [1000 * t for t in result["warm"]]
    print(f"buffer: {path} ({result['lines']} lines), findings {result['codes']}, "
          f"server exit {result['exit']}")
    print(f"cold (open -> first diagnostics): {1000 * result['cold']:.0f} ms")
    print(f"warm (didChange -> publishDiagnostics), {len(warm_ms)} edits: median "
          f"{statistics.median(warm_ms):.0f} ms, min {min(warm_ms):.0f} ms, max {max(warm_ms):.0f} ms")
    if result["cpu"]:
        print(f"server CPU per edit: median {1000 * statistics.median(result['cpu']):.0f} ms "
              f"(clock ticks of {1000 / os.sysconf('SC_CLK_TCK'):.0f} ms)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
