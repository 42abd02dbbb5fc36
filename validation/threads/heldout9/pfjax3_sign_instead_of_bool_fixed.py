# source: https://github.com/mlysy/pfjax/issues/3
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the replacement, low_acc = jnp.sign(targ_acc - accept_rate) and jnp.exp(jnp.log(rw_sd) - delta * low_acc), uses no Python boolean on a traced value, so mwg_adapt traces under jit and compiles once.

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
    low_acc = jnp.sign(targ_acc - accept_rate)
    return jnp.exp(jnp.log(rw_sd) - delta * low_acc)


f = jax.jit(mwg_adapt)  # scaffolding
f(jnp.array([.1, .2]), jnp.array([.3, .5]), 10.)  # scaffolding
f(jnp.array([.1, .2]), jnp.array([.3, .5]), 11.)  # scaffolding
_report({"jit(mwg_adapt)"}, 2)  # scaffolding
