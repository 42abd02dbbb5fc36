# source: https://github.com/QuantEcon/cef_2024_singapore/blob/e26e069a5f0321b04fdac5354d1ff749cfe421a6/notebooks/jax_intro.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: n is a static argument (it sets the shape of the random draw), but every call passes the same n, so approx_pi_jitted compiles once and is reused.

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

def approx_pi(n, key):
    u = jax.random.uniform(key, (2, n))
    distances = jnp.sqrt((u[0, :] - 0.5)**2 + (u[1, :] - 0.5)**2)
    fraction_in_circle = jnp.mean(distances < 0.5)
    return fraction_in_circle * 4  # dividing by radius**2

n = 1_000_000 # sample size for Monte Carlo simulation
key = jax.random.PRNGKey(1234)

approx_pi(n, key)  # scaffolding: was %time approx_pi(n, key)

approx_pi(n, key)  # scaffolding: was %time approx_pi(n, key)

approx_pi_jitted = jax.jit(approx_pi, static_argnums=(0,))

approx_pi_jitted(n, key)  # scaffolding: was %time approx_pi_jitted(n, key)

approx_pi_jitted(n, key)  # scaffolding: was %time approx_pi_jitted(n, key)

for _ in range(2):  # scaffolding: two more calls
    print(approx_pi_jitted(n, key))  # scaffolding
_report({"jit(approx_pi)"}, 4)  # scaffolding
