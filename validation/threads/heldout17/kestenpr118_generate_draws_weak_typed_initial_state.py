# source: https://github.com/QuantEcon/lecture-jax/pull/118
# expect: shape-churn at line 60
# runtime: COMPILES 2 CALLS 200
# why: generate_draws starts the cross-section with jnp.full((M,), s_init) for the Python float s_init, a weakly typed float32 array, while update_s returns a strongly typed one, so the jitted update_s is traced and compiled twice (first step, then every later step), although all calls have the same shape.
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


# lectures/kesten_processes.md at ccc296c (PR #118): imports, update_s, generate_draws and its two timed runs
import jax
import jax.numpy as jnp
from jax import random
from jax import lax

@jax.jit
def update_s(s, s_bar, a_random, b_random, e_random):
    exp_a = jnp.exp(a_random)
    exp_b = jnp.exp(b_random)
    exp_e = jnp.exp(e_random)

    s = jnp.where(s < s_bar,
                  exp_e,
                  exp_a * s + exp_b)

    return s

def generate_draws(M=1_000_000,
                   μ_a=-0.5,
                   σ_a=0.1,
                   μ_b=0.0,
                   σ_b=0.5,
                   μ_e=0.0,
                   σ_e=0.5,
                   s_bar=1.0,
                   T=500,
                   s_init=1.0,
                   seed=123):

    key = random.PRNGKey(seed)

    # Initialize the array of s values with the initial value
    s = jnp.full((M, ), s_init)

    # Perform updates on s for time t
    for t in range(T):
        keys = random.split(key, 3)
        a_random = μ_a + σ_a * random.normal(keys[0], (M, ))
        b_random = μ_b + σ_b * random.normal(keys[1], (M, ))
        e_random = μ_e + σ_e * random.normal(keys[2], (M, ))

        s = update_s(s, s_bar, a_random, b_random, e_random)
        
        # Generate new key for the next iteration
        key = random.fold_in(key, t)

    return s

data = generate_draws(M=10_000, T=100).block_until_ready()  # scaffolding: %time dropped; M and T cut from 1_000_000 and 500
data = generate_draws(M=10_000, T=100).block_until_ready()  # scaffolding: the rerun "to see the speed without compile time"
_report({"jit(update_s)"}, 200)  # scaffolding
