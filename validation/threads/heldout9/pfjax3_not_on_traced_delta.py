# source: https://github.com/mlysy/pfjax/issues/3
# expect: trace-time-error at line 43
# runtime: ERROR TracerBoolConversionError
# why: mwg_adapt computes (not delta) on delta = jnp.maximum(jnp.power(n_iter, -adapt_rate), adapt_max), which is a tracer when the adaptation runs under jit, so Python's not raises TracerBoolConversionError.

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


def mwg_adapt(rw_sd, accept_rate, n_iter,
              adapt_max=.01, adapt_rate=.5):
    """
    Adapt random walk jump sizes of MWG proposals.
    """

    targ_acc = 0.44  # target acceptance rate
    delta = jnp.power(n_iter, -adapt_rate)
    delta = jnp.maximum(delta, adapt_max)
    low_acc = jnp.less(accept_rate, targ_acc)
    return jnp.exp(jnp.log(rw_sd) - delta * low_acc + (not delta) * low_acc)


try:  # scaffolding
    jax.jit(mwg_adapt)(jnp.array([.1, .2]), jnp.array([.3, .5]), 10.)  # scaffolding
    print("COMPILES 1 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
