"""``jitlint mcp``: jitlint for coding agents, as a Model Context Protocol server over stdio.

Four tools, each with a JSON schema for its arguments and for its structured result (made of
the JSON output's objects): ``check``, ``explain``, ``fix`` and ``confirm``; what they do is
jitlint/workspace.py, this module only binds them to the protocol.  It is the one module that
imports the ``mcp`` SDK (the optional extra ``jitlint[mcp]``); the CLI imports it only for
``jitlint mcp``.  A request that cannot be served comes back as a tool error with the reason
(``isError``), and the server keeps serving.
"""

import sys
import traceback
from contextlib import contextmanager
from typing import Annotated, Iterator, Literal, Optional, Sequence

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp_types import ToolAnnotations
    from pydantic import Field
    from typing_extensions import NotRequired, TypedDict
except ModuleNotFoundError as exc:  # the optional extra is not installed
    raise ModuleNotFoundError(f"`jitlint mcp` needs the MCP SDK ({exc.name} is not installed): "
                              f"pip install 'jitlint[mcp]'", name=exc.name) from None

from jitlint import __version__
from jitlint.workspace import RequestError, Workspace

INSTRUCTIONS = """\
jitlint finds JAX jit anti-patterns: code that recompiles on every call (jax.jit of a lambda or
a fresh function in a loop, static arguments that change, shapes that change per step) or that
fails when traced. After writing or editing JAX code, `check` it (files, or your unsaved buffer
as `source` with its `filename`); `explain` a rule code you do not know; `fix` applies the safe
fixes (it returns the fixed source and a diff, and writes files only with `write: true`).
`confirm` EXECUTES the code (a script, or an entry command) in a subprocess with a timeout and
counts JAX's real compiles: use it to prove a finding, or a fix, with measured numbers."""


# ---------------------------------------------------------------------------- results
class Runtime(TypedDict):
    """What a confirm run measured for one finding."""

    verdict: str  # confirmed | not reproduced | not reached | raised <Error> | run failed | not run
    compiles: Optional[int]
    calls: Optional[int]
    reason: Optional[str]  # JAX's cache-miss explanation
    detail: str
    stderr: NotRequired[str]  # the tail of a failed run's stderr


class FixInfo(TypedDict):
    """The fix `fix` would apply: safe, or unsafe (applied only with unsafe-fixes in the config)."""

    applicability: str  # safe | unsafe
    message: str


class Finding(TypedDict):
    """A finding: the keys of `jitlint check --output-format json`."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    name: str
    message: str
    severity: str  # error (raises at run time) | warning (recompiles)
    fix: Optional[FixInfo]  # check: the fix on offer, or null (always null from confirm)
    cell: NotRequired[int]  # notebooks: the cell, with line/end_line counted in it
    absolute_line: NotRequired[int]  # notebooks: the line in the code cells joined in order
    group: NotRequired[str]  # an opt-in group's finding: "unknown-callers" (selected by name)
    fixable: NotRequired[bool]  # check: `fix` fixes it
    runtime: NotRequired[Runtime]  # confirm: the verdict


class CheckResult(TypedDict):
    findings: list[Finding]
    files: int  # files linted
    warnings: list[str]
    errors: list[str]  # jitlint's own bugs, per file


class RuleDoc(TypedDict):
    code: str
    name: str
    summary: str
    severity: str
    fixable: bool
    opt_in: bool  # off unless selected explicitly
    documentation: str  # Markdown, as `jitlint rule CODE` prints it


class AppliedFix(TypedDict):
    code: str
    line: int
    description: str
    applicability: str  # safe | unsafe


class FixedFile(TypedDict):
    path: str
    source: str  # the fixed text
    diff: str  # unified diff from the original
    applied: list[AppliedFix]
    written: bool
    not_written: Optional[str]  # why a file asked to be written was not


class FixOutcome(TypedDict):
    files: list[FixedFile]  # the changed files (a `source` buffer: always its entry)
    fixes: int
    warnings: list[str]


class CompileCount(TypedDict):
    function: str
    compiles: int
    call: str  # path:line of the call that compiled
    defined: str  # path:line of the function


class Run(TypedDict):
    command: str
    cwd: str
    seconds: float
    exit_code: Optional[int]
    failure: Optional[str]  # why the run failed, unless a finding predicted the error
    stderr_tail: Optional[str]
    jit_compiles: int  # compiles of the user's jitted functions in this run
    compiles: list[CompileCount]


class ConfirmResult(CheckResult):
    runs: list[Run]


# ---------------------------------------------------------------------------- arguments
Paths = Annotated[Optional[list[str]], Field(
    description="Files or directories (relative paths are taken from the server's first root; "
                "every path must lie inside its roots)")]
Source = Annotated[Optional[str], Field(
    description="An in-memory buffer (e.g. your unsaved edit) to use instead of `paths`")]
Filename = Annotated[Optional[str], Field(
    description="With `source`: the file the buffer is (for the config, per-file ignores and "
                "the findings' path); it need not exist")]
Select = Annotated[Optional[list[str]], Field(
    description="Only these rule codes or prefixes, e.g. [\"JIT1\", \"JIT301\"] (default: the "
                "project's [tool.jitlint] selection)")]
Ignore = Annotated[Optional[list[str]], Field(description="Also ignore these codes or prefixes")]


@contextmanager
def _tool_errors() -> Iterator[None]:
    """A request that cannot be served, and a jitlint bug, become tool errors with the reason."""
    try:
        yield
    except RequestError as exc:
        raise ToolError(str(exc)) from None
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        raise ToolError(f"internal error: {type(exc).__name__}: {exc} (a bug in jitlint "
                        f"{__version__}; please report it)") from None


def build_server(workspace: Workspace) -> MCPServer:
    server = MCPServer("jitlint", version=__version__, instructions=INSTRUCTIONS,
                       log_level="WARNING")

    @server.tool(annotations=ToolAnnotations(title="Lint JAX code for jit anti-patterns",
                                             read_only_hint=True, open_world_hint=False))
    def check(paths: Paths = None, source: Source = None, filename: Filename = None,
              select: Select = None, ignore: Ignore = None) -> CheckResult:
        """Lint JAX code for jit anti-patterns (recompiles on every call, errors when traced).

        Give `paths`, or your buffer as `source` with its `filename`. Static: nothing is run.
        Each finding has the keys of jitlint's JSON output, and `fixable` when `fix` fixes it.
        """
        with _tool_errors():
            return workspace.check(paths, source, filename, select, ignore)

    @server.tool(annotations=ToolAnnotations(title="Explain a jitlint rule",
                                             read_only_hint=True, open_world_hint=False))
    def explain(rule: Annotated[str, Field(
            description="A rule code (JIT101) or name (jit-of-lambda)")]) -> RuleDoc:
        """A rule's documentation: what it finds, what it costs at run time (measured compile
        counts), whether its fix is safe, and an example with the code to use instead."""
        with _tool_errors():
            return workspace.explain(rule)

    @server.tool(annotations=ToolAnnotations(title="Apply jitlint's safe fixes",
                                             read_only_hint=False, destructive_hint=False,
                                             idempotent_hint=True, open_world_hint=False))
    def fix(paths: Paths = None, source: Source = None, filename: Filename = None,
            select: Select = None, ignore: Ignore = None,
            write: Annotated[bool, Field(
                description="Write the fixed files back (files in `paths` only; default: "
                            "return the fixed source and the diff, and write nothing)")] = False,
            ) -> FixOutcome:
        """Apply the safe automatic fixes (e.g. hoist a jit out of a loop) to `paths` or to a
        `source` buffer: each changed file's fixed source, its unified diff and the fixes
        applied. Files are written only with `write: true`; `check` again afterwards."""
        with _tool_errors():
            return workspace.fix(paths, source, filename, select, ignore, write)

    @server.tool(annotations=ToolAnnotations(title="Run code and count its JAX compiles",
                                             read_only_hint=False, destructive_hint=True,
                                             idempotent_hint=False, open_world_hint=True))
    def confirm(
            path: Annotated[Optional[str], Field(
                description="A script to run (in its directory, as `python SCRIPT`)")] = None,
            command: Annotated[Optional[str], Field(
                description="Or an entry command, e.g. \"python train.py --steps 3\" or "
                            "\"python -m pytest tests/test_x.py\" (a leading `python` means the "
                            "`python` argument's interpreter)")] = None,
            paths: Annotated[Optional[list[str]], Field(
                description="With `command`: the files or directories whose findings it "
                            "confirms (default: `cwd`)")] = None,
            cwd: Annotated[Optional[str], Field(
                description="With `command`: where it runs (default: the server's first "
                            "root)")] = None,
            timeout: Annotated[Optional[float], Field(
                gt=0, description="Seconds before a run is killed with its process group "
                                  "(default: 120)")] = None,
            max_memory: Annotated[Optional[str], Field(
                description="Kill a run whose processes use more resident memory, e.g. \"4G\" "
                            "(Linux; default: no limit)")] = None,
            python: Annotated[Optional[str], Field(
                description="The interpreter that has the project's JAX (default: the one "
                            "running jitlint)")] = None,
            platform: Annotated[Optional[Literal["cpu", "gpu", "tpu"]], Field(
                description="JAX_PLATFORMS for the runs (default: cpu)")] = None,
            select: Select = None, ignore: Ignore = None) -> ConfirmResult:
        """EXECUTES CODE: run a script or an entry command in a subprocess (own process group,
        timeout, optional memory cap) with JAX's compiles counted, and give each finding a
        runtime verdict (confirmed / not reproduced / not reached / raised / run failed) with
        its measured compiles; recompilations no rule predicted come back as JIT900. Each run
        also lists the compiles of every jitted function, so a fix shows as fewer compiles."""
        with _tool_errors():
            return workspace.confirm(path, command, paths, cwd, timeout, max_memory, python,
                                     platform, select, ignore)

    return server


def serve(roots: Sequence[str]) -> int:
    """Serve over stdin/stdout until the client closes them; ``roots``: the directories the
    agent may have jitlint read, fix and run (default: the current directory)."""
    try:
        workspace = Workspace(roots)
    except RequestError as exc:
        print(f"jitlint: error: {exc}", file=sys.stderr)
        return 2
    build_server(workspace).run("stdio")
    return 0
