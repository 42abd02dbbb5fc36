"""Run every route probe under real JAX and check (or, with --write, fill in) its runtime header.

    python validation/probes/routes/measure.py [--write] [NAME ...]

What a probe does under JAX 0.10.2 (CPU), in its ``# runtime:`` header:

    # runtime: COMPILES 3 CALLS 3          compiles and calls (a recompile per call: 3 of 3)
    # runtime: STALE COMPILES 1 CALLS 2    and it printed what a run without jit does not
    # runtime: ERROR ValueError            it raised

COMPILES counts the compiles of jitted functions (``jax.jit``, ``equinox.filter_jit``,
``nnx.jit``; jitlint's ``count_compiles``) and of lax control flow run eagerly (``while``,
``scan``, ``cond`` outside any jit); CALLS the calls of those from the probe's own code (not
from inside a trace).  STALE: the probe's output differs from its output with
``jax_disable_jit``, that is jit reused a trace whose Python values changed since.  Each run
is a process forked after one import of JAX (../harness.py).
"""

from __future__ import annotations

import functools
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from harness import RUNTIME, Probe, import_libraries, probes, run_forked  # noqa: E402

# lax control flow that compiles its own executable when called outside jit
EAGER_CONTROL_FLOW = ("while_loop", "fori_loop", "scan", "cond", "switch")
_counting = {}


def _calls_from(probe: Probe):
    """A decorator counting the calls of a callable made by the probe's code (or by a library
    it calls: equinox's filter_jit calls its jit), outside traces."""
    import jax

    def count(fn, key, depth=1):
        @functools.wraps(fn)
        def counted(*args, **kwargs):
            caller = Path(sys._getframe(depth).f_code.co_filename)
            leaves = jax.tree_util.tree_leaves((args, kwargs))
            if not any(isinstance(leaf, jax.core.Tracer) for leaf in leaves):
                if caller == probe.path or probe.path in caller.parents or "site-packages" in caller.parts:
                    _counting[key] = _counting.get(key, 0) + 1
            return fn(*args, **kwargs)
        return counted

    return count


def _start(probe: Probe):
    """In the child: count compiles (jitlint's count_compiles) and calls."""
    import jax
    from jax import lax

    from jitlint.runtime.counting import count_compiles

    count = _calls_from(probe)
    jit = jax.jit

    class CountedJit:
        """What ``jax.jit`` returns, its calls counted; attributes and binding as a method
        are the jitted function's."""

        def __init__(self, jitted):
            self._jitted = jitted
            self._call = count(jitted, "jit", depth=2)
            functools.update_wrapper(self, jitted)

        def __call__(self, *args, **kwargs):
            return self._call(*args, **kwargs)

        def __get__(self, instance, owner=None):
            return self if instance is None else functools.partial(self, instance)

        def __getattr__(self, name):
            return getattr(self._jitted, name)

    def counted_jit(fun=None, *args, **kwargs):
        if fun is None:
            return lambda f: CountedJit(jit(f, *args, **kwargs))
        return CountedJit(jit(fun, *args, **kwargs))

    jax.jit = counted_jit
    for name in EAGER_CONTROL_FLOW:
        setattr(lax, name, count(getattr(lax, name), "eager"))
    _counting["block"] = count_compiles(cold=True)  # kept: its exit stops the counting
    _counting["counts"] = _counting["block"].__enter__()


def _result():
    counts = _counting["counts"]
    eager = sum(1 for e in counts.events if not e.is_user_function
                and any(name in e.fun_name for name in ("while", "scan", "cond", "switch")))
    return {"compiles": counts.total + eager, "calls": _counting.get("jit", 0) + _counting.get("eager", 0)}


def _disable_jit():
    import jax

    jax.config.update("jax_disable_jit", True)


NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def _same_output(eager: str, jitted: str) -> bool:
    """The same text, its numbers equal up to float rounding (XLA fuses what eager runs
    op by op)."""
    if NUMBER.split(eager) != NUMBER.split(jitted):
        return False
    return all(math.isclose(float(a), float(b), rel_tol=1e-4, abs_tol=1e-6)
               for a, b in zip(NUMBER.findall(eager), NUMBER.findall(jitted)))


def measure(probe: Probe) -> str:
    outcome = run_forked(probe, functools.partial(_start, probe), _result)
    if outcome["status"] != "ok":
        return f"ERROR {outcome.get('type')}"
    measured = f"COMPILES {outcome['compiles']} CALLS {outcome['calls']}"
    eager = run_forked(probe, _disable_jit)
    if eager["status"] == "ok" and not _same_output(eager["stdout"], outcome["stdout"]):
        return f"STALE {measured}"
    return measured


def main() -> int:
    import_libraries()
    import jitlint.runtime.counting  # noqa: F401  imported once, before the forks

    write = "--write" in sys.argv
    names = [a for a in sys.argv[1:] if not a.startswith("--")]
    bad = 0
    for probe in probes(HERE):
        if names and probe.name not in names:
            continue
        measured = measure(probe)
        path = probe.header_file
        text = path.read_text()
        header = RUNTIME.search(probe.header)
        runtime = header["value"] if header else None
        if write:  # in a notebook too: the header's text is the same inside its JSON string
            path.write_text(text.replace(f"# runtime: {runtime}", f"# runtime: {measured}", 1))
        elif runtime != measured:
            print(f"{probe.name}: header says {runtime!r}, measured {measured!r}")
            bad += 1
        print(f"{probe.name:40} {measured}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
