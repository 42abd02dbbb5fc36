# source: https://github.com/QuantEcon/lecture-jax/pull/91
# expect: none
# runtime: COMPILES 1 CALLS 19
# why: gini_jax starts its lax.scan carry at the Python int 0 while the body returns float32 sums, which JAX promotes (the weak int carry is not an error), and the loop over 19 Weibull parameters feeds same-shaped float32 samples, so the jitted function compiles once.
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


# lectures/wealth_dynamics.md at 5a84ff0 (PR #91, 'Update lecture 7 (try 2)'): the Gini coefficient cells, in order (plot cut: scaffolding)
import jax
import jax.numpy as jnp

@jax.jit
def gini_jax(y):
    n = y.shape[0]
    g_sum = 0

    # Define the function for each update
    def sum_y_gini(g_sum, i):
        g_sum += jnp.sum(jnp.abs(y[i] - y))
        return g_sum, g_sum

    g_sum, _ = jax.lax.scan(sum_y_gini, 0, jnp.arange(n))
    return g_sum / (2 * n * jnp.sum(y))

a_vals = range(1, 20)
ginis = []
ginis_theoretical = []
n = 100

for a in a_vals:
    rand_key = jax.random.PRNGKey(a)
    y = jax.random.weibull_min(rand_key, 1, a, shape=(n,))
    ginis.append(gini_jax(y))
    ginis_theoretical.append(1 - 2**(-1/a))
_report({"jit(gini_jax)"}, 19)  # scaffolding
