# source: https://github.com/riccardo-rende/jaxmc/commit/caa01815c5014c432307bf0ef9b133c25955c305
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The next commit rewrites energy with jax.lax.fori_loop over partial(body_fn, e_local=e_local), a fresh partial on every trace; it sits inside the jitted sweep, so nothing recompiles across runs.

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

from typing import Any, Callable
from functools import partial

import jax
import jax.numpy as jnp
from flax import struct

jax.config.update("jax_enable_x64", True)  # main.py's `from jax.config import config; config.update(...)`, spelled for current jax (scaffolding)

# --- jaxmc/lattice.py ---


@struct.dataclass
class LatticeState():
    spins: jnp.ndarray
    L: int

# --- jaxmc/hamiltonian.py ---



@jax.jit
def e_local_nn_1d(i:int, spins: jnp.array):
    L = jnp.size(spins)
    el = - 1.0 * spins[i] * (spins[(i+L-1)%L] + spins[(i+1)%L])
    return el

@partial(jax.jit, static_argnums=(1,))
def energy(spins: jnp.array, e_local: Callable) -> float:
    def body_fn(i:int, vals: tuple[jnp.ndarray, jnp.ndarray], e_local: Callable):
        e, spins = vals
        return [e + e_local(i, spins), spins]

    L = jnp.size(spins)

    init_vals = [0.0, spins]
    vals = jax.lax.fori_loop(0, L, partial(body_fn, e_local=e_local), init_vals)
    return 0.5 * vals[0]


# --- jaxmc/montecarlo.py ---



@struct.dataclass
class SingleSpinFlipState():
    acc_call: int
    tot_call: int

@struct.dataclass
class MonteCarloState():
    key: jnp.array

@jax.jit
def single_spin_flip_step(i: int, vals: tuple[jnp.array, MonteCarloState, SingleSpinFlipState, jnp.ndarray]):
    spins, mc, a, rands = vals
    L = jnp.size(spins)

    a = a.replace(tot_call=a.tot_call+1)

    index = (rands[i, 0] * L).astype(int)
    de = -2.0 * e_local_nn_1d(index, spins)
    rand = rands[i, 1]

    def accepted_func(vals):
        index, spins, a = vals
        spins = spins.at[index].set(-spins[index]) # FLIP
        a = a.replace(acc_call=a.acc_call+1)
        return spins, a

    def refused_func(vals):
        index, spins, a = vals
        return spins, a

    spins, a = jax.lax.cond(rand < jnp.exp(-0.5*de), accepted_func, refused_func, (index, spins, a))

    return [spins, mc, a, rands]

@jax.jit
def sweep(i: int, vals: tuple[jnp.array, MonteCarloState, SingleSpinFlipState, jnp.ndarray, dict]):
    spins, mc, a, rands, mean_values = vals

    L = jnp.size(spins)

    for k in range(L):
        spins, mc, a, rands = single_spin_flip_step(i*L+k, [spins, mc, a, rands])
    
    mean_values["e"] = mean_values["e"] + energy(spins, e_local_nn_1d)

    return [spins, mc, a, rands, mean_values]

def mc_sweeps(nsweeps: int, s: LatticeState, mc: MonteCarloState, a: SingleSpinFlipState):
    tot_steps = s.L*nsweeps

    # Generate all the random numbers
    new_key, subkey = jax.random.split(mc.key, num=2)
    rand = jax.random.uniform(subkey, (tot_steps, 2))
    mc = mc.replace(key=new_key)

    mean_values = {"e": 0.0}
    
    init_vals = [s.spins, mc, a, rand, mean_values]
    spins, mc, a, _, mean_values = jax.lax.fori_loop(0, nsweeps, sweep, init_vals)

    mean_values = jax.tree_util.tree_map(lambda x: x/nsweeps/s.L, mean_values)

    s = s.replace(spins=spins)

    return s, mc, a, mean_values



# --- main.py, cut down (L=10 as in the first commit, 20 sweeps instead of 10**5): scaffolding ---
seed = 0
L = 10

s = LatticeState(jnp.ones(L, dtype=jnp.float64), L)
a = SingleSpinFlipState(0, 0)
mc = MonteCarloState(jax.random.PRNGKey(seed))

n_calls = 0
try:  # scaffolding
    for run in range(3):  # main.py runs mc_sweeps twice (warm-up, then timed); one more here
        s, mc, a, mean_values = mc_sweeps(20, s, mc, a)
        n_calls += 1
    print(f"mean e={mean_values['e']}")
    _report({"jit(energy)", "jit(sweep)", "jit(while)", "jit(scan)", "jit(fori_loop)"}, n_calls)  # scaffolding
except TypeError as e:  # scaffolding
    print("ERROR", type(e).__name__)
