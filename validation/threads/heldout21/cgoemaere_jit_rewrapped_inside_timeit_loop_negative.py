# source: https://github.com/cgoemaere/jax-intro/blob/main/jax_intro.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 11
# why: jit(coffee_maker) is re-created on every timed call, but each new wrapper of the same function hits the existing compile cache: 1 compile / 11 calls.
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

def coffee_maker(beans):
    """Simulates a complex morning coffee routine"""
    return jnp.sum(4 * beans + 2 * jnp.sin(beans) ** 2)

# First, let's time it without JIT
morning_beans = jnp.ones((1000,))
print("Slooooooowwwww:")
for _ in range(5):  # scaffolding: was %timeit
    coffee_maker(morning_beans).block_until_ready()  # scaffolding

# Now with JIT - first cup is slow (compilation)
print("Quite slow:")
for _ in range(5):  # scaffolding: was %timeit
    jit(coffee_maker)(morning_beans).block_until_ready()  # scaffolding

# But every cup after that is lightning fast!
jitted_coffee = jit(coffee_maker)  # or use @jit if you're fancy
_ = jitted_coffee(morning_beans)  # First slow cup
print("Super fast:")
for _ in range(5):  # scaffolding: was %timeit
    jitted_coffee(morning_beans).block_until_ready()  # scaffolding
_report({"jit(coffee_maker)"}, 5 + 1 + 5)  # scaffolding
