# source: https://github.com/ott-jax/ott/issues/3
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: marcocuturi's fix, return jnp.where(out.converged, out.reg_ot_cost, jnp.nan), keeps the choice on device, so the function compiles once for two calls with equal shapes.
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
# ott-jax/ott issue #3: marcocuturi's fix, a jit-compatible conditional on out.converged
import collections  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

SinkhornOutput = collections.namedtuple("SinkhornOutput", "errors converged reg_ot_cost")  # scaffolding: ott not installed


def sinkhorn(x, y, epsilon=1.0):  # scaffolding: stand-in for ott's sinkhorn solver (arrays out)
    cost = jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)
    errors = jnp.array([0.5, 0.1, -1.0])
    return SinkhornOutput(errors, jnp.array(True), jnp.mean(cost) * epsilon)


@jax.jit  # scaffolding: the reporter jits the function that calls sinkhorn
def reg_ot_cost(x, y):
    out = sinkhorn(x, y)  # scaffolding
    return jnp.where(out.converged, out.reg_ot_cost, jnp.nan)


reg_ot_cost(jnp.ones((4, 2)), jnp.zeros((5, 2)))  # scaffolding
reg_ot_cost(jnp.ones((4, 2)), jnp.ones((5, 2)))  # scaffolding
_report({"jit(reg_ot_cost)"}, 2)  # scaffolding
