# source: https://python-programming.quantecon.org/jax_intro.html
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: every parameter of the jitted compute_call_price_jax is a default value (M used as a shape, n as the fori_loop bound) and it is called with no arguments, so the defaults are baked in as constants: 1 compile / 2 calls.
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
import jax
# import quantecon as qe  # scaffolding: quantecon not installed; qe.Timer() blocks replaced by plain calls
import jax.numpy as jnp
import numpy as np  # scaffolding: imported earlier in the lecture

M = 100_000  # scaffolding: 10_000_000 in the lecture (CPU time)

n, β, K = 20, 0.99, 100
μ, ρ, ν, S0, h0 = 0.0001, 0.1, 0.001, 10, 0

@jax.jit
def compute_call_price_jax(β=β,
                           μ=μ,
                           S0=S0,
                           h0=h0,
                           K=K,
                           n=n,
                           ρ=ρ,
                           ν=ν,
                           M=M,
                           key=jax.random.PRNGKey(1)):

    s = jnp.full(M, np.log(S0))
    h = jnp.full(M, h0)

    def update(i, loop_state):
        s, h, key = loop_state
        key, subkey = jax.random.split(key)
        Z = jax.random.normal(subkey, (2, M))
        s = s + μ + jnp.exp(h) * Z[0, :]
        h = ρ * h + ν * Z[1, :]
        new_loop_state = s, h, key
        return new_loop_state

    initial_loop_state = s, h, key
    final_loop_state = jax.lax.fori_loop(0, n, update, initial_loop_state)
    s, h, key = final_loop_state

    expectation = jnp.mean(jnp.maximum(jnp.exp(s) - K, 0))

    return β**n * expectation

compute_call_price_jax().block_until_ready()  # scaffolding: was `with qe.Timer():` (compile run)

compute_call_price_jax().block_until_ready()  # scaffolding: was `with qe.Timer():` (timed run)
_report({"jit(compute_call_price_jax)"}, 2)  # scaffolding
