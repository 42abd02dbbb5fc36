# source: https://crackedaicode.com/problems/jax-while-loop-bounded-search
# expect: jit-in-loop-or-body at line 37
# runtime: COMPILES 4 CALLS 4
# why: find_negative builds new cond/body lambdas on every call and runs lax.while_loop eagerly; the while loop is staged and compiled as jit(while) per call, so four calls compile four times.

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
# The page's worked mini-example, called on a few arrays (the problem is graded on many inputs).
from jax import lax
import jax.numpy as jnp

def find_negative(x):
    n = x.shape[0]
    cond = lambda idx: (idx < n) & (x[idx] >= 0.0)
    body = lambda idx: idx + 1
    return lax.while_loop(cond, body, jnp.int32(0))

find_negative(jnp.array([1.0, 2.0, -3.0, 4.0]))
# → 2
for x in [jnp.array([-1.0, 2.0, 3.0, 4.0]), jnp.array([1.0, -2.0, 3.0, 4.0]),  # scaffolding
          jnp.array([1.0, 2.0, 3.0, 4.0])]:
    find_negative(x)  # scaffolding
_report({"jit(while)"}, 4)  # scaffolding
