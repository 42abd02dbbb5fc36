# source: https://github.com/QuantEcon/lecture-jax/commit/f2a4e343e870b3c768730540777deb950d02710d
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The commit marks T and M static; with the default call it compiles once, as before.

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
import jax.numpy as jnp
from jax import random
from jax import lax
from typing import NamedTuple
from functools import partial


# lectures/kesten_processes.md after the commit
class Firm(NamedTuple):
    μ_a:   float = -0.5
    σ_a:   float = 0.1
    μ_b:   float = 0.0
    σ_b:   float = 0.5
    μ_e:   float = 0.0
    σ_e:   float = 0.5
    s_bar: float = 1.0


firm = Firm()


@partial(jax.jit, static_argnames=("T", "M"))
def generate_cross_section_lax(
        firm, T=500, M=20_000, s_init=1.0, seed=123  # scaffolding: M=500_000 in the lecture
    ):

    μ_a, σ_a, μ_b, σ_b, μ_e, σ_e, s_bar = firm
    key = random.PRNGKey(seed)
    
    # Initial cross section
    s = jnp.full((M, ), s_init)

    def update_cross_section(t, state):
        s, key = state
        key, *subkeys = jax.random.split(key, 4)
        # Generate current random draws 
        a = μ_a + σ_a * random.normal(subkeys[0], (M,))
        b = μ_b + σ_b * random.normal(subkeys[1], (M,))
        e = μ_e + σ_e * random.normal(subkeys[2], (M,))
        # Exponentiate them
        a, b, e = jax.tree.map(jnp.exp, (a, b, e))
        # Pull out the t-th cross-section of shocks
        s = jnp.where(s < s_bar, e, a * s + b)
        new_state = s, key
        return new_state

    # Use fori_loop 
    initial_state = s, key
    final_s, final_key = lax.fori_loop(
        0, T, update_cross_section, initial_state
    )
    return final_s


data = generate_cross_section_lax(firm).block_until_ready()  # (tic/toc in the lecture)
data = generate_cross_section_lax(firm).block_until_ready()
_report({"jit(generate_cross_section_lax)"}, 2)  # scaffolding
