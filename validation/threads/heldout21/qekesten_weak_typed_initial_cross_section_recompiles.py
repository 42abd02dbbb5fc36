# source: https://jax.quantecon.org/kesten_processes.html
# expect: shape-churn at line 57
# runtime: COMPILES 3 CALLS 202
# why: jnp.full((M,), s_init) with the Python float s_init gives a weak-typed float32 cross-section, and the jitted update_cross_section returns a strong float32, so the per-period update compiles twice (step 1 and step 2) instead of once; the lax version compiles once: 3 compiles / 202 calls.
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
# import matplotlib.pyplot as plt  # scaffolding: not installed (plots left out)
# import quantecon as qe  # scaffolding: not installed; qe.Timer blocks replaced by plain calls
import jax
import jax.numpy as jnp
from jax import random
from jax import lax
from typing import NamedTuple
from functools import partial

class Firm(NamedTuple):
    μ_a:   float = -0.5
    σ_a:   float = 0.1
    μ_b:   float = 0.0
    σ_b:   float = 0.5
    μ_e:   float = 0.0
    σ_e:   float = 0.5
    s_bar: float = 1.0

@jax.jit
def update_cross_section(s, a, b, e, firm):
    μ_a, σ_a, μ_b, σ_b, μ_e, σ_e, s_bar = firm
    s = jnp.where(s < s_bar, e, a * s + b)
    return s

def generate_cross_section(
        firm, M=500_000, T=500, s_init=1.0, seed=123
    ):

    μ_a, σ_a, μ_b, σ_b, μ_e, σ_e, s_bar = firm
    key = random.key(seed)

    # Initialize the cross-section to a common value
    s = jnp.full((M, ), s_init)

    # Perform updates on s for time t
    for t in range(T):
        key, *subkeys = random.split(key, 4)
        a = μ_a + σ_a * random.normal(subkeys[0], (M,))
        b = μ_b + σ_b * random.normal(subkeys[1], (M,))
        e = μ_e + σ_e * random.normal(subkeys[2], (M,))
        # Exponentiate shocks
        a, b, e = jax.tree.map(jnp.exp, (a, b, e))
        # Update the cross-section of firms
        s = update_cross_section(s, a, b, e, firm)

    return s

firm = Firm()
data = generate_cross_section(firm, M=10_000, T=100).block_until_ready()  # scaffolding: was inside `with qe.Timer():`; M, T cut from the defaults 500_000, 500

data = generate_cross_section(firm, M=10_000, T=100).block_until_ready()  # scaffolding: was inside `with qe.Timer():`; M, T cut

@partial(jax.jit, static_argnames=("T", "M"))
def generate_cross_section_lax(
        firm, T=500, M=500_000, s_init=1.0, seed=123
    ):

    μ_a, σ_a, μ_b, σ_b, μ_e, σ_e, s_bar = firm
    key = random.key(seed)
    
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
        # Update the cross-section of firms
        s = jnp.where(s < s_bar, e, a * s + b)
        new_state = s, key
        return new_state

    # Use fori_loop 
    initial_state = s, key
    final_s, final_key = lax.fori_loop(
        0, T, update_cross_section, initial_state
    )
    return final_s

data = generate_cross_section_lax(firm, M=10_000, T=100).block_until_ready()  # scaffolding: was inside `with qe.Timer():`; M, T cut

data = generate_cross_section_lax(firm, M=10_000, T=100).block_until_ready()  # scaffolding: was inside `with qe.Timer():`; M, T cut
_report({"jit(update_cross_section)", "jit(generate_cross_section_lax)"}, 100 + 100 + 2)  # scaffolding
