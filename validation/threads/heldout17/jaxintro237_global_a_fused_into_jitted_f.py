# source: https://github.com/QuantEcon/lecture-python-programming/pull/237
# expect: stale-closure at line 36
# runtime: COMPILES 2 CALLS 3
# why: f reads the global a, which jit bakes into the compiled function; after a = 42 the second f(x) hits the cache and still returns 1 + x, and only the new input shape (3,) makes it retrace with a = 42.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# lectures/jax_intro.md as added by PR #237 (66dab7e): the "pure functions" cells, in order
import numpy as np
import jax
import jax.numpy as jnp

a = 1  # global

@jax.jit
def f(x):
    return a + x

x = jnp.ones(2)

print(f(x))  # scaffolding: print added (notebook cell output)

a = 42

print(f(x))  # scaffolding: print added; still [2. 2.]

x = np.ones(3)

print(f(x))  # scaffolding: print added; [43. 43. 43.]
_report({"jit(f)"}, 3)  # scaffolding
