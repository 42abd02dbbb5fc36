# source: https://crackedaicode.com/problems/jax-retrace-on-shape-change
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: one jitted jnp.sum is called on two different input lengths, so it compiles once per shape (two in all) and repeated shapes reuse the cache; the page presents this per-shape specialisation as the expected behaviour.

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
import jax
import jax.numpy as jnp

f = jax.jit(jnp.sum)

a = jnp.array([1.0, 2.0, 3.0])  # shape [3]
b = jnp.array([4.0, 3.0, 2.0, 1.0])  # shape [4]

result = f(a) + f(b)  # f compiled twice (different shapes)
# result == 6.0 + 10.0 == 16.0
result = f(a * 2) + f(b * 2)  # scaffolding: same shapes again, cache hits
_report({"jit(sum)"}, 4)  # scaffolding
