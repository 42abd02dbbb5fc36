# source: https://github.com/patrick-kidger/equinox/issues/973
# expect: none
# runtime: COMPILES 2 CALLS 20
# why: A question about the per-call dispatch overhead of eqx.filter_jit against jax.jit; both wrappers are created once and called ten times with the same model and input shape, so each compiles exactly once.

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
import equinox as eqx
import jax
import jax.numpy as jnp


model = eqx.nn.Identity()
x = jnp.zeros((1,1))

@eqx.filter_jit
def fwd_eqx(m, x):
    return m(x)

@jax.jit
def fwd_jax(m, x):
    return m(x)

# Make sure everything is jit compiled
for _ in range(10):
    fwd_eqx(model, x)
    fwd_jax(model, x)
_report({"jit(fwd_eqx)", "jit(fwd_jax)"}, 20)  # scaffolding
