"""``%load_ext jitlint``: after each notebook cell, what JAX compiled in it.

    %load_ext jitlint          # start (imports JAX)
    %jitlint off               # stop reporting; %jitlint on to resume
    %jitlint warnings          # only the warnings, not the per-cell counts
    %jitlint                   # say what it is doing

After a cell in which jitted functions compiled, one line counts the compiles per function;
a function that compiled more than once *in that cell* with the same argument shapes and
dtypes (a jit re-created in a loop, ...) gets a warning with JAX's own explanation of the last
cache miss; when only a static argument's value changed, from the third compile on (a flag
toggled between two values is two compiles, then cached).  A cell that compiled nothing prints
nothing.  Counting is ``jitlint.runtime.count_compiles`` (JAX's monitoring events and
cache-miss explanations); the shapes are those JAX logs when it lowers a computation
(``Compiling jit(f) with global shapes and types ...``, a DEBUG record it always emits).

Only within one cell: running a cell again re-creates the functions it defines, and their
compiles then are expected.  The cell that loads the extension counts from the moment it
loads.  ``ipython script.ipy`` (and ``ipython notebook.ipynb``) runs its code silently, and
IPython then signals no cell events: what compiled from ``%load_ext jitlint`` to the end of
the run is reported once, as the run ends ("since %load_ext jitlint").  Imported only by
``%load_ext jitlint``; never by the linter.
"""

from __future__ import annotations

import atexit
import logging
import sys
from collections import defaultdict, deque
from typing import Any, Optional

from jitlint.runtime.counting import CompileEvent, count_compiles

_LOWERING_LOGGER = "jax._src.interpreters.pxla"
_LOWERING_PREFIX = "Compiling %s with global shapes and types"
MODES = ("on", "off", "warnings")


# A static argument taking 2 values (a train/eval flag) is two compiles, then cached: fine.
STATIC_VALUES_WARNING = 3


def _is_static_change(reason: str) -> bool:
    """JAX's explanation says only a static argument's value differs."""
    return "different input pytree" in reason and "Static(" in reason


class _ShapeLog(logging.Handler):
    """Collects, per jitted function name, the input shapes JAX lowers it for, in order.

    The records are DEBUG unless ``jax_log_compiles`` is on: the logger is lowered to DEBUG
    while a cell runs, and its own propagation is replaced by this handler, which passes on
    to the parent loggers exactly the records they would have had (so nothing new is shown)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.shapes: dict[str, deque] = defaultdict(deque)
        self.logger = logging.getLogger(_LOWERING_LOGGER)
        self._saved: Optional[tuple[int, bool, int]] = None

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if record.msg == _LOWERING_PREFIX + ". Argument mapping: %s." or \
                    str(record.msg).startswith(_LOWERING_PREFIX):
                name, avals = record.args[0], record.args[1]  # type: ignore[index]
                self.shapes[str(name)].append(_shapes_text(avals))
        except Exception:
            pass
        if self._saved is not None and self._saved[1] and record.levelno >= self._saved[2]:
            parent = self.logger.parent
            if parent is not None:
                parent.handle(record)

    def __enter__(self) -> "_ShapeLog":
        logger = self.logger
        self._saved = (logger.level, logger.propagate, logger.getEffectiveLevel())
        logger.addHandler(self)
        logger.setLevel(logging.DEBUG)
        logger.propagate = False
        return self

    def __exit__(self, *exc: Any) -> None:
        logger = self.logger
        logger.removeHandler(self)
        if self._saved is not None:
            logger.setLevel(self._saved[0])
            logger.propagate = self._saved[1]
        self._saved = None

    def take(self, fun_name: str) -> Optional[str]:
        queue = self.shapes.get(fun_name)
        return queue.popleft() if queue else None


def _shapes_text(avals: Any) -> str:
    """``(ShapedArray(float32[3]), ...)`` -> ``float32[3], ...``."""
    try:
        parts = [aval.str_short() if hasattr(aval, "str_short") else str(aval) for aval in avals]
    except TypeError:
        return str(avals)
    return ", ".join(parts) if parts else "no array arguments"


class CompileWatcher:
    """Counts compiles between IPython's pre_run_cell and post_run_cell events."""

    def __init__(self, shell: Any, out=None, err=None) -> None:
        self.shell = shell
        self.mode = "on"
        self._out, self._err = out, err
        self._block = None
        self._counts = None
        self._shapes: Optional[_ShapeLog] = None

    # -- IPython events
    def pre_run_cell(self, info: Any = None) -> None:
        self._stop()
        if self.mode != "off":
            self._start()

    def _start(self) -> None:
        self._shapes = _ShapeLog().__enter__()
        self._block = count_compiles()
        self._counts = self._block.__enter__()

    def post_run_cell(self, result: Any = None) -> None:
        self._report_and_stop("in this cell")

    def at_exit(self) -> None:
        """A silent run (``ipython script.ipy``) gets no cell events: report it at its end."""
        self._report_and_stop("since %load_ext jitlint")

    def _report_and_stop(self, span: str) -> None:
        counts = self._counts
        shapes = self._shapes
        self._stop()
        if counts is None or shapes is None or self.mode == "off":
            return
        self.report(counts.events, shapes, span)

    def _stop(self) -> None:
        block, shapes = self._block, self._shapes
        self._block = self._counts = self._shapes = None
        try:
            if block is not None:
                block.__exit__(None, None, None)
        finally:
            if shapes is not None:
                shapes.__exit__()

    # -- what is printed
    def report(self, events: list[CompileEvent], shapes: _ShapeLog, span: str = "in this cell") -> None:
        groups: dict[tuple, list[tuple[CompileEvent, Optional[str]]]] = {}
        for event in events:
            signature = shapes.take(event.fun_name)  # in order, so eager ops take theirs too
            if event.is_user_function:
                groups.setdefault((event.name, event.defined_at), []).append((event, signature))
        if not groups:
            return
        if self.mode == "on":
            total = sum(len(g) for g in groups.values())
            parts = [f"{self._label(name, where)} x{len(g)}" for (name, where), g in groups.items()]
            print(f"jitlint: {total} compile{'s' if total != 1 else ''} {span}: "
                  f"{', '.join(parts)}", file=self._out or sys.stdout)
        for (name, where), group in groups.items():
            by_signature: dict[Optional[str], list[CompileEvent]] = defaultdict(list)
            for event, signature in group:
                by_signature[signature].append(event)
            for signature, same in by_signature.items():
                if signature is None or len(same) < 2:
                    continue
                reasons = [e.reason for e in same[1:] if e.reason and e.reason != "first compile"]
                static = bool(reasons) and all(_is_static_change(r) for r in reasons)
                if static and len(same) < STATIC_VALUES_WARNING:
                    continue  # a flag toggled (train/eval): one compile per value, then cached
                if static:
                    what = ("a static argument had a new value each time; if it changes on "
                            "every call (a loop counter), make it a traced argument")
                else:
                    what = "each compile after the first was for nothing"
                because = f"; JAX: {reasons[-1]}" if reasons else ""
                print(f"jitlint: warning: {self._label(name, where)} compiled {len(same)} times "
                      f"{span} with the same shapes ({signature}): {what}{because}",
                      file=self._err or sys.stderr)

    def _label(self, name: str, where: Optional[tuple[str, int]]) -> str:
        if where is None:
            return name
        return f"{name} ({self._place(where[0])}, line {where[1]})"

    def _place(self, filename: str) -> str:
        """``In [3]`` for a cell's code, else the file's name."""
        import os

        compiler = getattr(self.shell, "compile", None)
        names = getattr(compiler, "_filename_map", None) or {}
        for candidate in (filename, os.path.basename(filename)):
            number = names.get(candidate)
            if isinstance(number, int):
                return f"In [{number}]"
        return os.path.basename(filename)

    # -- %jitlint
    def magic(self, line: str = "") -> None:
        word = line.strip().lower()
        if not word:
            print(f"jitlint: compile reporting is {self.mode} ({'|'.join(MODES)})")
            return
        if word not in MODES:
            print(f"jitlint: unknown mode {word!r}; use %jitlint {' | '.join(MODES)}",
                  file=sys.stderr)
            return
        was, self.mode = self.mode, word
        if word == "off":
            self._stop()
        elif was == "off":
            self._start()  # the rest of this cell counts


_WATCHERS: dict[int, CompileWatcher] = {}


def load_ipython_extension(ipython: Any) -> None:
    if id(ipython) in _WATCHERS:
        return
    try:
        import jax  # noqa: F401  (counting needs it; import it now, not inside the first cell)
    except ImportError:
        print("jitlint: JAX is not installed in this kernel; nothing to count", file=sys.stderr)
        return
    watcher = CompileWatcher(ipython)
    ipython.events.register("pre_run_cell", watcher.pre_run_cell)
    ipython.events.register("post_run_cell", watcher.post_run_cell)
    ipython.register_magic_function(watcher.magic, "line", "jitlint")
    _WATCHERS[id(ipython)] = watcher
    # This cell's pre_run_cell came before the extension: the rest of the cell counts from now.
    watcher._start()
    atexit.register(watcher.at_exit)


def unload_ipython_extension(ipython: Any) -> None:
    watcher = _WATCHERS.pop(id(ipython), None)
    if watcher is None:
        return
    watcher._stop()
    atexit.unregister(watcher.at_exit)
    for event, callback in (("pre_run_cell", watcher.pre_run_cell),
                            ("post_run_cell", watcher.post_run_cell)):
        try:
            ipython.events.unregister(event, callback)
        except ValueError:
            pass
