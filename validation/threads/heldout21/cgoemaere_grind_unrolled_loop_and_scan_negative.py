# source: https://github.com/cgoemaere/jax-intro/blob/main/jax_intro.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: a 4096-step Python loop is unrolled inside jit (slow to compile, once) and the lax.scan version compiles once too; the second call of each reuses the compile: 2 compiles / 4 calls.
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
import jax  # scaffolding: the notebook's import cell (cell 3)
import jax.numpy as jnp  # scaffolding
import jax.random as jrand  # scaffolding
from jax import grad, jit, vmap, lax  # scaffolding
import numpy as np  # scaffolding
import time  # scaffolding

# Grind beans with multiple steps
def grind_bad(beans):
    result = beans
    for i in range(4096):  # Yes, I like my beans reduced to dust
        result = result * 0.8 + 2  # Each grinding step
    return result

grind_bad = jit(grind_bad)
# For loops work but take long to compile
grind_bad(jnp.array([4.0, 8.0]))
# Only the compilation itself is slow. Afterwards, it's super fast.
grind_bad(jnp.array([5.0, 7.0]))
# Better: Using scan for iterative processes
# (but unfortunately it's a bit ugly)
def grind_good(beans):
    def grind_step(carry, _):
        return carry * 0.8 + 2, None
    final_brew, _ = lax.scan(grind_step, beans, None, length=4096)
    return final_brew

grind_good = jit(grind_good)
grind_good(jnp.array([4.0, 8.0]))
# Ironically, fori / scan is a teeny-tiny bit slower than unrolled for-loops
grind_good(jnp.array([5.0, 7.0]))
_report({"jit(grind_bad)", "jit(grind_good)"}, 4)  # scaffolding
