# source: https://github.com/QuantEcon/lecture-python.myst/pull/623
# expect: none
# runtime: COMPILES 3 CALLS 602
# why: sim_inventory_path marks sim_length static and is called in Python loops of 400 and 200 paths, but the length is the same within each loop: one compile per distinct length (100, 200, plus the vmapped call) for 602 calls.
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



# cell 1
from functools import partial
from typing import NamedTuple
import jax
import jax.numpy as jnp
from jax import random
# import matplotlib.pyplot as plt  # scaffolding: not installed; plots cut
# from sklearn.neighbors import KernelDensity  # scaffolding: not installed; KDE plots cut

# cell 2
class Firm(NamedTuple):
    s: int    # restock trigger level
    S: int    # capacity
    μ: float  # shock location parameter
    σ: float  # shock scale parameter

# cell 3
@partial(jax.jit, static_argnames="sim_length")
def sim_inventory_path(firm, x_init, key, sim_length):
    """
    Simulate an inventory path of length sim_length from a single key.

    A fresh shock is generated each period by folding the period index
    into key, so callers pass one key per path rather than a whole array.

    Args:
        firm: Firm object
        x_init: Initial inventory level
        key: A single JAX random key
        sim_length: Number of periods to simulate

    Returns:
        Array of inventory levels [X_0, X_1, ..., X_{sim_length-1}]
    """

    def update(t, X):
        x = X[t - 1]
        Z = random.normal(random.fold_in(key, t))   # fresh shock for period t
        D = jnp.exp(firm.μ + firm.σ * Z)
        x_new = jnp.where(
            x <= firm.s,
            jnp.maximum(firm.S - D, 0.0),   # restock to S, then meet demand
            jnp.maximum(x - D, 0.0),        # just meet demand
        )
        return X.at[t].set(x_new)

    X = jnp.zeros(sim_length).at[0].set(x_init)
    return jax.lax.fori_loop(1, sim_length, update, X)

# cell 4
firm = Firm(s=10, S=100, μ=1.0, σ=0.5)

# cell 5
sim_length = 100
x_init = 50
X = sim_inventory_path(firm, x_init, random.key(21), sim_length)

# cell 6
s, S = firm.s, firm.S

# fig, ax = plt.subplots()  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# bbox = (0.0, 1.02, 1.0, 0.102)  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# legend_args = {"ncol": 3, "bbox_to_anchor": bbox, "loc": 3, "mode": "expand"}  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# ax.plot(X, label="inventory")  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.plot(jnp.full(sim_length, s), "k--", label="$s$")  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.plot(jnp.full(sim_length, S), "k-", label="$S$")  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.set_ylim(0, S + 10)  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.set_xlabel("time")  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.legend(**legend_args)  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# plt.show()  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# cell 7
sim_length = 200
# fig, ax = plt.subplots()  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# ax.plot(jnp.full(sim_length, s), "k--", label="$s$")  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.plot(jnp.full(sim_length, S), "k-", label="$S$")  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.set_ylim(0, S + 10)  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.legend(**legend_args)  # scaffolding: plotting cut (matplotlib/sklearn not installed)

for i in range(400):
    X = sim_inventory_path(firm, x_init, random.key(i), sim_length)
#     ax.plot(X, "b", alpha=0.2, lw=0.5)  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# plt.show()  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# cell 8
T = 50
M = 200  # Number of draws

ymin, ymax = 0, S + 10

# fig, axes = plt.subplots(1, 2, figsize=(11, 6))  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# for ax in axes:  # scaffolding: plotting cut (matplotlib/sklearn not installed)
#     ax.grid(alpha=0.4)  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# ax = axes[0]  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# ax.set_ylim(ymin, ymax)  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.set_ylabel("$X_t$", fontsize=16)  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.vlines((T,), -1.5, 1.5)  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# ax.set_xticks((T,))  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.set_xticklabels((r"$T$",))  # scaffolding: plotting cut (matplotlib/sklearn not installed)

sample = []
for m in range(M):
    X = sim_inventory_path(firm, x_init, random.key(m), 2 * T)
#     ax.plot(X, "b-", lw=1, alpha=0.5)  # scaffolding: plotting cut (matplotlib/sklearn not installed)
#     ax.plot((T,), (X[T],), "ko", alpha=0.5)  # scaffolding: plotting cut (matplotlib/sklearn not installed)
    sample.append(X[T])

# axes[1].set_ylim(ymin, ymax)  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# axes[1].hist(sample, bins=16, density=True, orientation="horizontal", histtype="bar", alpha=0.5)  # scaffolding: plotting cut

# plt.show()  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# cell 9
T = 50
M = 2_000  # scaffolding: 50_000 in the lecture

# fig, ax = plt.subplots()  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# Draw all M paths at once by vectorizing over one key per path
keys = random.split(random.key(0), M)
paths = jax.vmap(
    sim_inventory_path, in_axes=(None, None, 0, None)
)(firm, x_init, keys, T + 1)
sample = paths[:, T]

# ax.hist(sample, bins=36, density=True, histtype="bar", alpha=0.75)  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# plt.show()  # scaffolding: plotting cut (matplotlib/sklearn not installed)


# (cells 10-17: KDE plots and the firm cross-section simulations are in quanteconpr623_inventory_int_then_float_firm_levels.py)  # scaffolding
_report({"jit(sim_inventory_path)"}, 602)  # scaffolding: 1 + 400 + 200 calls, plus one vmapped call
