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
reason, and with where its jit object was made (the bootstrap's jit-creation hook): a jit made
by the user's or a library's code over any callable (a partial of ``jnp.multiply`` included,
which JAX does not explain) is a jitted function's compile; the others are eager
``jax.numpy`` operations, counted only in ``all``.  Whose code a frame is (the user's, a
library's) is told as in the bootstrap, by where the interpreter installs packages.

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

from jitlint.runtime.attribution import Compile, Miss, inner_name, is_informative, parse_miss
from jitlint.runtime.bootstrap import compiling_jit, hook_jit_creation, libraries, user_stack

_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
_MISS_LOGGER = "jax._src.interpreters.partial_eval"


@dataclass(frozen=True)
class CompileEvent:
    fun_name: str  # as JAX names it: "jit(step)"
    name: str  # "step"
    call_site: Optional[tuple[str, int]]  # innermost frame outside JAX: (file, line)
    defined_at: Optional[tuple[str, int]]  # from JAX's explanation; None for eager ops
    reason: Optional[str]  # JAX's explanation of the cache miss
    # a jitted function's compile (JAX explained it, or code outside JAX made the jit: the
    # user's, a library's), not an eager jnp operation
    explained: bool = False
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


def _event(fun_name: str, miss: Optional[Miss], frame) -> CompileEvent:
    """What compiled, from the frame of JAX's compile (see the bootstrap: whose jit it is)."""
    name = inner_name(fun_name)
    jit, made, target = compiling_jit(frame)
    real = [(os.path.realpath(f[0]), f[1], f[2]) for f in user_stack(frame)]
    event = Compile(fun_name, name, real, miss,
                    [(os.path.realpath(f[0]), f[1], f[2]) for f in made or ()],
                    (os.path.realpath(target[0]), target[1], target[2]) if target else None,
                    jit, libraries())
    call = event.call_site()
    defined, library = _definition(event) if event.is_jit else (None, None)
    reason = miss.reason if miss and is_informative(miss.reason) else (
        "first compile" if event.is_jit else None)
    return CompileEvent(fun_name, name, (call[0], call[1]) if call else None, defined, reason,
                        event.is_jit, library)


def _definition(event: Compile) -> tuple[Optional[tuple[str, int]], Optional[str]]:
    """(where the user's function is defined, the library whose jit compiled it): JAX's
    "defined at", else the function the jit wraps, when either is the user's; else the line
    where the user called ``jax.jit`` (over a JAX function, a partial of one); else the
    library that made the jit (equinox's filter_jit)."""
    miss, target = event.miss, event.target
    if miss is not None and miss.def_file and miss.def_line and event.library(miss.def_file) is None:
        return (miss.def_file, miss.def_line), None
    if target is not None and event.library(target[0]) is None:
        return (target[0], target[1]), None
    made = event.made_here()
    if made is not None:
        return (made[0], made[1]), None
    library = event.maker() or (event.library(target[0]) if target is not None else None) or (
        event.library(miss.def_file) if miss is not None and miss.def_file else None)
    return None, library


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
    hook_jit_creation()  # jits made from now on are known as the user's or a library's
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
        counts.events.append(_event(fun_name, miss, sys._getframe(1)))

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
