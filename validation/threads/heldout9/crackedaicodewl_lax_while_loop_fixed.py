# source: https://crackedaicode.com/problems/jax-while-loop-vs-python-while
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: good expresses the loop with lax.while_loop, so the data-dependent exit is traced once: 1 compile for 2 calls.

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


# --- end harness ---
import jax.numpy as jnp
from jax import lax, jit


@jit
def good(x):
    cond = lambda s: s > 1.0
    body = lambda s: s * 0.5
    return lax.while_loop(cond, body, x)


good(4.0)  # → 0.5
good(9.0)  # scaffolding
_report({"jit(good)"}, 2)  # scaffolding
