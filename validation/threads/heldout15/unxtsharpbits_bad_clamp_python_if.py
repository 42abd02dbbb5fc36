# source: https://unxt.readthedocs.io/en/stable/_sources/guides/sharp-bits.md
# expect: trace-time-error at line 52
# runtime: ERROR TracerBoolConversionError
# why: bad_clamp branches with a Python if on x.value > 10.0, and x.value is traced under jax.jit, so the truth value of the comparison cannot be taken and the call raises.
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
import jax.tree_util  # scaffolding


class _Q:  # scaffolding: stand-in for unxt.Quantity (not installed): value is a leaf, unit is static
    def __init__(self, value, unit):
        self.value = jnp.asarray(value)
        self.unit = unit


jax.tree_util.register_pytree_node(  # scaffolding
    _Q, lambda q: ((q.value,), q.unit), lambda unit, children: _Q(children[0], unit))


class u:  # scaffolding: import unxt as u
    Q = _Q


import jax


@jax.jit
def bad_clamp(x: u.Q):
    # ❌ Python if statement with traced values doesn't work
    if x.value > 10.0:
        return u.Q(10.0, x.unit)
    else:
        return x


try:  # scaffolding
    bad_clamp(u.Q(12.0, "m"))
    _report({"jit(bad_clamp)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
