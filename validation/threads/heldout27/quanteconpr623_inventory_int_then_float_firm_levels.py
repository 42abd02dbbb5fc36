# source: https://github.com/QuantEcon/lecture-python.myst/pull/623
# expect: shape-churn at line 227
# runtime: COMPILES 2 CALLS 5
# why: the cross-section X starts as jnp.full(num_firms, x_init) with the integer x_init=50, so the first vmapped simulate_firm_forward call sees int32 levels and every later call the float32 levels it returned: the step compiles twice for 5 calls.
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

# (cell 10: KDE plotting cut)  # scaffolding

# (cell 11: KDE plotting cut)  # scaffolding

# cell 12
@jax.jit
def simulate_firm_forward(firm, x_init, key, num_periods):
    """
    Simulate a single firm num_periods steps forward and return its
    final inventory level. A fresh shock is drawn each period from key.
    """

    def update(t, x):
        Z = random.normal(random.fold_in(key, t))
        D = jnp.exp(firm.μ + firm.σ * Z)
        return jnp.where(
            x <= firm.s,
            jnp.maximum(firm.S - D, 0.0),
            jnp.maximum(x - D, 0.0),
        )

    return jax.lax.fori_loop(0, num_periods, update, x_init * 1.0)


# Vectorize over firms: each has its own initial level and its own key
simulate_firms_forward = jax.vmap(
    simulate_firm_forward, in_axes=(None, 0, 0, None)
)

# cell 13
def shift_firms_forward(firm, current_inventory_levels, num_periods, key):
    """
    Shift multiple firms forward by num_periods using JAX vectorization.
    Returns:
        Array of new inventory levels after num_periods
    """

    # Generate one independent random key per firm
    num_firms = len(current_inventory_levels)
    firm_keys = random.split(key, num_firms)
    # Run simulation for all firms in parallel
    new_inventory_levels = simulate_firms_forward(
        firm, current_inventory_levels, firm_keys, num_periods
    )

    return new_inventory_levels

# cell 14
x_init = 50
num_firms = 2_000  # scaffolding: 50_000 in the lecture

sample_dates = 0, 10, 50, 250, 500, 750

first_diffs = jnp.diff(jnp.array(sample_dates))

# fig, ax = plt.subplots()  # scaffolding: plotting cut (matplotlib/sklearn not installed)

X = jnp.full(num_firms, x_init)

current_date = 0
for d in first_diffs:
    X = shift_firms_forward(firm, X, d, random.key(current_date + 1))
    current_date += d
#     plot_kde(X, ax, label=f"t = {current_date}")  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# ax.set_xlabel("inventory")  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.set_ylabel("probability")  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# ax.legend()  # scaffolding: plotting cut (matplotlib/sklearn not installed)
# plt.show()  # scaffolding: plotting cut (matplotlib/sklearn not installed)

# cell 15
@jax.jit
def simulate_firm_restocks(firm, x_init, key, num_periods):
    """
    Simulate a single firm for num_periods and report whether it
    restocked more than once. A fresh shock is drawn each period from key.

    Returns:
        1 if the firm restocks > 1 times, 0 otherwise
    """

    def update(t, carry):
        x, restock_count = carry
        Z = random.normal(random.fold_in(key, t))
        D = jnp.exp(firm.μ + firm.σ * Z)
        restock = x <= firm.s
        x_new = jnp.where(
            restock,
            jnp.maximum(firm.S - D, 0.0),
            jnp.maximum(x - D, 0.0),
        )
        return x_new, restock_count + restock

    # Carry the inventory level and a running restock count
    _, total_restocks = jax.lax.fori_loop(
        0, num_periods, update, (x_init * 1.0, 0)
    )
    return (total_restocks > 1).astype(jnp.int32)


# Vectorize the simulation across all firms (one key each)
simulate_firms_restocks = jax.vmap(
    simulate_firm_restocks, in_axes=(None, None, 0, None)
)

# cell 16
def compute_freq(
    firm, x_init=70, sim_length=50, num_firms=20_000, key=random.key(2)  # scaffolding: num_firms=1_000_000 in the lecture
):
    """
    Compute the frequency of firms that restock 2 or more times using JAX.

    Args:
        firm: Firm dataclass
        x_init: Initial inventory level for all firms
        sim_length: Length of simulation for each firm
        num_firms: Number of firms to simulate
        key: JAX random key

    Returns:
        Fraction of firms that restock 2 or more times
    """
    # Generate one independent random key per firm
    firm_keys = random.split(key, num_firms)
    # Run simulation for all firms
    restock_indicators = simulate_firms_restocks(
        firm, x_init, firm_keys, sim_length
    )
    # Compute frequency (fraction of firms that restocked > 1 times)
    frequency = jnp.mean(restock_indicators)
    return frequency

# cell 17
# %%time  # scaffolding: IPython magic

freq = compute_freq(firm)
print(f"Frequency of at least two stock outs = {freq}")
_report({"jit(simulate_firm_forward)"}, 5)  # scaffolding: the five shift_firms_forward calls of cell 14
