# source: https://github.com/alonfnt/ising-jax/blob/3ccbd1450b55c6fbe9b7179a0f05e06a53d8474a/magnetisation.py
# expect: jit-in-loop-or-body at line 76
# runtime: COMPILES 10 CALLS 10
# why: compute_magnetization is only vmapped, never jitted, so each of the 10 chunk calls runs ising_mcmc eagerly and its lax.scan over a freshly defined update_lattice closure is traced and compiled again: jit(scan) compiles 10 times for 10 calls.
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


import sys  # scaffolding
sys.argv = ['magnetisation.py', '--size', '2', '--tile', '4', '--niters', '4', '-Tpoints', '10', '--quiet']  # scaffolding: small grid, 10 temperatures (the script's 10 chunks of 1), no figure

# ---- ising.py ----
"""
Implementation of the optimized Ising-Model described in [1]
written in JAX for GPU by Albert Alonso, Niels Bohr Institute.

[1] "A Performance Study of the 2D Ising Model on GPUs"
    https://arxiv.org/abs/1906.06297

Copyright (C) 2022 Albert Alonso

Use of this source code is governed by an MIT-style
license that can be found in the LICENSE file or at
https://opensource.org/licenses/MIT.
"""
import jax
import jax.numpy as jnp
import jax.random as jr


def apply_stencil(a, b, kernel, index):
    nn = (a @ kernel) + (kernel @ b)
    nn = nn.at[:,:,index,:].add(jnp.roll(b[:,:,-1-index,:], shift=2*index+1, axis=0))
    nn = nn.at[:,:,:,index].add(jnp.roll(b[:,:,:,-1-index], shift=2*index+1, axis=1))
    return nn

def ising_mcmc(key, shape, beta, niters):
    kernel = jnp.eye(shape[-1], k=-1, dtype=int) + jnp.eye(shape[-1], k=1, dtype=int)
    sections = [jnp.ones(shape)] * 4

    def metropolis_step(key, section, A, B, idx):
        probabilities = jr.uniform(key, shape)
        nn = apply_stencil(A, B, kernel, idx)
        acceptance_ratio = jnp.exp(-2 * beta * nn * section)
        flips = probabilities < acceptance_ratio
        return section - (2 * flips * section)

    def update_lattice(lattice, key):
        a1, b1, b2, a2 = lattice

        # Find the new spin values for both regions with the same "spin color".
        key1, key2 = jr.split(key, 2)
        r1 = metropolis_step(key1, a1, b1, b2, idx=0)
        r2 = metropolis_step(key2, a2, b1, b2, idx=-1)
        return [b1, r1, r2, b2], None

    keys = jr.split(key, niters//2)
    sections, _ = jax.lax.scan(update_lattice, init=sections, xs=keys)
    return jnp.array(sections)


# ---- magnetisation.py ----
"""
Script to compute the magnetization at different temperatures of a grid.

Copyright (C) 2022 Albert Alonso

Use of this source code is governed by an MIT-style
license that can be found in the LICENSE file or at
https://opensource.org/licenses/MIT.
"""
import argparse
import time

import jax
import jax.numpy as jnp
import jax.random as jr
# import matplotlib.pyplot as plt  # scaffolding: not installed; the figure is skipped with --quiet

# from ising import ising_mcmc  # scaffolding: ising.py is inlined above

parser = argparse.ArgumentParser()
parser.add_argument("--size", '-x', type=int, default=40, help="number of lattice tiles")
parser.add_argument("--tile", '-y', type=int, default=128, help="number of elements in tile")
parser.add_argument("--niters", '-n', type=int, default=100, help="number of trial iterations")
parser.add_argument("--seed", '-s', type=int, default=1234, help="seed for random number generation")
parser.add_argument("--Tmin",  type=float, default=1, help="Mininum temperature")
parser.add_argument("-Tmax", type=float, default=3.5, help="Maxinum temperature")
parser.add_argument("-Tpoints", type=int, default=100, help="Number of points")
parser.add_argument("--quiet", '-q', action='store_true', help="Do not show the figure")

args = parser.parse_args()

key = jr.PRNGKey(args.seed)
keys = jr.split(key, args.Tpoints)

temperatures = jnp.linspace(args.Tmin, args.Tmax, args.Tpoints)
subgrid_shape = (args.size // 2, args.size // 2, args.tile, args.tile)

print(f'Computing the ising model for T=[{args.Tmin},{args.Tmax}) in {args.Tpoints} points')
print(f'For a grid of size ({args.size*args.tile}, {args.size*args.tile})')

@jax.vmap
def compute_magnetization(T, key):
    beta = 1 / T
    tiles = ising_mcmc(key, shape=subgrid_shape, beta=beta, niters=args.niters)
    return jnp.mean(tiles)

Ts = temperatures.reshape((10, -1))
Ks = keys.reshape((10, -1, 2))
tic = time.time()
magnetizations = jnp.array([compute_magnetization(t,k) for (t, k) in zip(Ts, Ks)])
magnetizations = jax.block_until_ready(magnetizations)
print(f'Elapsed time: {time.time() - tic:.2f}s')

if not args.quiet:
    fig = plt.figure()
    plt.plot(temperatures.ravel(), magnetizations.ravel())
    plt.show()

_report({"jit(scan)", "scan"}, len(Ts))  # scaffolding
