"""Count real JAX compiles inside your own tests: ``count_compiles()``.

    from jitlint.runtime import count_compiles

    with count_compiles() as counts:
        for batch in batches:
            state = train_step(state, batch)
    assert counts.of(train_step) == 1, counts.describe()

Imports JAX lazily (when the context is entered), so importing this module costs nothing.
A compile is one ``/jax/core/compile/backend_compile_duration`` event (one per executable
built).  Each is paired with JAX's cache-miss explanation (``jax_explain_cache_misses`` is
switched on inside the block), which names the jitted function's definition site and the
reason; compiles without one are eager ``jax.numpy`` operations, counted only in ``all``.

A library's jit (equinox's ``filter_jit``, flax's ``nnx.jit``) compiles a function of the
library's own that JAX names after yours: such a compile's call site is your line (library
frames are skipped), and ``of(fn)`` counts it for the function of that name.

``count_compiles(cold=True)`` clears JAX's in-memory caches first (``jax.clear_caches()``), so
that the count does not depend on what ran before (in a test suite: on test order).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from jitlint.runtime.attribution import (Miss, inner_name, is_informative, is_library,
                                         library_name, parse_miss)

_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
_MISS_LOGGER = "jax._src.interpreters.partial_eval"
_SKIP = (os.sep + "jax" + os.sep, os.sep + "jaxlib" + os.sep, os.sep + "jax_plugins" + os.sep,
         "<frozen ", os.sep + "contextlib.py", os.path.abspath(__file__))


@dataclass(frozen=True)
class CompileEvent:
    fun_name: str  # as JAX names it: "jit(step)"
    name: str  # "step"
    call_site: Optional[tuple[str, int]]  # innermost frame outside JAX: (file, line)
    defined_at: Optional[tuple[str, int]]  # from JAX's explanation; None for eager ops
    reason: Optional[str]  # JAX's explanation of the cache miss
    explained: bool = False  # JAX explained it: a jitted function, not an eager jnp operation
    library: Optional[str] = None  # the library whose jit compiled it (equinox, flax), if any

    @property
    def is_user_function(self) -> bool:
        return self.explained

    def describe(self) -> str:
        where = f"{self.call_site[0]}:{self.call_site[1]}" if self.call_site else "?"
        defined = f" defined at {self.defined_at[0]}:{self.defined_at[1]}" if self.defined_at else (
            f" (jitted by {self.library})" if self.library else "")
        because = f": {self.reason}" if self.reason else ""
        return f"{self.fun_name}{defined}, called at {where}{because}"


@dataclass
class CompileCounts:
    """What compiled inside a ``count_compiles()`` block (live while it runs)."""

    events: list[CompileEvent] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Compiles of jitted functions (eager jnp operations left out)."""
        return sum(1 for e in self.events if e.is_user_function)

    @property
    def all(self) -> int:
        """Every executable built, eager jnp operations included."""
        return len(self.events)

    @property
    def by_function(self) -> Counter:
        """``Counter({"step (train.py:12)": 3, ...})`` of jitted functions."""
        return Counter(f"{e.name} ({_short(e.defined_at)})" if e.defined_at else e.name
                       for e in self.events if e.is_user_function)

    @property
    def by_site(self) -> Counter:
        """``Counter({("train.py", 40): 3, ...})``: compiles per call site."""
        return Counter(e.call_site for e in self.events if e.is_user_function and e.call_site)

    def of(self, function: Any) -> int:
        """Compiles of one function: a plain Python function, or what jax.jit returned."""
        code = _code_of(function)
        if code is None:
            raise TypeError(f"cannot tell where {function!r} is defined")
        where = (os.path.realpath(code.co_filename), code.co_firstlineno)
        return sum(1 for e in self.events if e.defined_at == where
                   or (e.library and e.defined_at is None and e.name == code.co_name))

    def describe(self) -> str:
        if not self.events:
            return "no compiles"
        return "\n".join(e.describe() for e in self.events if e.is_user_function) or \
            f"{self.all} eager operation compile(s), no jitted function"

    def __repr__(self) -> str:
        return f"CompileCounts(total={self.total}, by_function={dict(self.by_function)})"


def _short(where: tuple[str, int]) -> str:
    return f"{os.path.basename(where[0])}:{where[1]}"


def _code_of(function: Any):
    seen = 0
    while function is not None and seen < 10:
        seen += 1
        code = getattr(function, "__code__", None)
        if code is not None:
            return code
        function = (getattr(function, "__wrapped__", None) or getattr(function, "_fun", None)
                    or getattr(function, "func", None))
    return None


def _call_site(frame) -> Optional[tuple[str, int]]:
    """The innermost frame of the user's own code: not JAX, not a library that wraps jit."""
    while frame is not None:
        filename = frame.f_code.co_filename
        if not any(part in filename for part in _SKIP) and not is_library(os.path.realpath(filename)):
            return os.path.realpath(filename), frame.f_lineno
        frame = frame.f_back
    return None


def _jitted_function(frame) -> Optional[Any]:
    """The function the compiling jit wraps, from the frame of JAX's ``cache_miss``."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "cache_miss" and code.co_filename.endswith("pjit.py"):
            return frame.f_locals.get("fun")
        frame = frame.f_back
    return None


def _definition(miss: Optional[Miss], frame) -> tuple[Optional[tuple[str, int]], Optional[str]]:
    """(where the user's function is defined, the library whose jit compiled it)."""
    if miss is not None and miss.def_file and miss.def_line and not is_library(miss.def_file):
        return (miss.def_file, miss.def_line), None
    code = _code_of(_jitted_function(frame))
    if code is not None:
        path = os.path.realpath(code.co_filename)
        if not is_library(path):
            return (path, code.co_firstlineno), None
        return None, library_name(path)
    if miss is not None and miss.def_file:
        return None, library_name(miss.def_file)
    return None, None


_lock = threading.Lock()


@contextmanager
def count_compiles(cold: bool = False, counts: Optional[CompileCounts] = None) -> Iterator[CompileCounts]:
    """Count the JAX compiles that happen inside the block (in every thread).

    ``cold=True`` first clears JAX's in-memory caches, so that functions compiled before the
    block compile again inside it: the count is the same whatever ran before.  ``counts``: add
    to an existing ``CompileCounts`` (the pytest plugin's)."""
    import jax
    from jax import monitoring

    if cold:
        jax.clear_caches()
    counts = counts if counts is not None else CompileCounts()
    pending: list[Miss] = []

    class Handler(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            try:
                pending.append(parse_miss(record.getMessage(), os.getcwd()))
            except Exception:
                pass

    def on_duration(event: str, duration: float, **kwargs: Any) -> None:
        if event != _COMPILE_EVENT:
            return
        fun_name = kwargs.get("fun_name") or ""
        name = inner_name(fun_name)
        with _lock:
            miss = next((m for m in reversed(pending) if m.name == name
                         or (m.name == "<unknown>" and name == "<unnamed function>")), None)
            del pending[:]
        frame = sys._getframe(1)
        defined, library = _definition(miss, frame) if miss is not None else (None, None)
        reason = miss.reason if miss and is_informative(miss.reason) else (
            "first compile" if miss else None)
        counts.events.append(CompileEvent(fun_name, name, _call_site(frame), defined, reason,
                                          miss is not None, library))

    logger = logging.getLogger(_MISS_LOGGER)
    handler = Handler(logging.WARNING)
    previous_propagate = logger.propagate
    previous_explain = jax.config.jax_explain_cache_misses
    logger.addHandler(handler)
    logger.propagate = False
    jax.config.update("jax_explain_cache_misses", True)
    monitoring.register_event_duration_secs_listener(on_duration)
    try:
        yield counts
    finally:
        monitoring.unregister_event_duration_listener(on_duration)
        jax.config.update("jax_explain_cache_misses", previous_explain)
        logger.removeHandler(handler)
        logger.propagate = previous_propagate
