# source: https://python-programming.quantecon.org/numpy_vs_numba_vs_jax.html
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: qm_jax holds the series length n static (it sets the scan length and output size) and is called twice with the same n, so the second (timed) call reuses the compile: 1 compile / 2 calls.
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
import jax  # scaffolding: the lecture's imports
import jax.numpy as jnp  # scaffolding
# import quantecon as qe  # scaffolding: quantecon not installed; qe.Timer blocks replaced by plain calls

n = 100_000  # scaffolding: 10_000_000 in the lecture (set in the Numba section), cut for CPU time

from jax import lax
from functools import partial

cpu = jax.devices("cpu")[0]

@partial(jax.jit, static_argnums=(1,), device=cpu)
def qm_jax(x0, n, α=4.0):
    def update(x, t):
        x_new = α * x * (1 - x)
        return x_new, x_new

    _, x = lax.scan(update, x0, jnp.arange(n))
    return jnp.concatenate([jnp.array([x0]), x])

x_jax = qm_jax(0.1, n).block_until_ready()  # scaffolding: was inside `with qe.Timer(precision=8):`

x_jax = qm_jax(0.1, n).block_until_ready()  # scaffolding: was inside `with qe.Timer(precision=8):`
_report({"jit(qm_jax)"}, 2)  # scaffolding
