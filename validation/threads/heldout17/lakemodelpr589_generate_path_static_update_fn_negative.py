# source: https://github.com/QuantEcon/lecture-python.myst/pull/589
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: generate_path is jitted with the update function f and num_steps static and the model passed through **kwargs; each distinct (f, num_steps, kwargs structure) compiles once, so the three simulations (stocks, rates, Markov chain) compile three times, one per distinct update rule, with no repeat compiles.
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


# lectures/lake_model.md at 19cc20d (PR #589's merge): code cells in order up to the Markov-chain simulation; plotting, the later sections and quantecon import cut (scaffolding)
import jax
import jax.numpy as jnp
from typing import NamedTuple
from functools import partial
import jax.scipy.stats as stats


class _Stub:  # scaffolding: matplotlib is not installed; plotting calls do nothing
    def __getattr__(self, name):  # scaffolding
        return self  # scaffolding

    def __call__(self, *a, **k):  # scaffolding
        return self  # scaffolding

    def __getitem__(self, i):  # scaffolding
        return self  # scaffolding


plt = _Stub()  # scaffolding
plt.subplots = lambda *a, **k: (_Stub(), _Stub())  # scaffolding


class LakeModel(NamedTuple):
    """
    Parameters for the lake model
    """
    λ: float = 0.283
    α: float = 0.013
    b: float = 0.0124
    d: float = 0.00822

@partial(jax.jit, static_argnames=['f', 'num_steps'])
def generate_path(f, initial_state, num_steps, **kwargs):
    """
    Generate a time series by repeatedly applying an update rule.

    Given a map f, initial state x_0, and a set of model parameter θ, this
    function computes and returns the sequence {x_t}_{t=0}^{T-1} when

        x_{t+1} = f(x_t, t, θ) 

    Args:
        f: Update function mapping (x_t, t, θ) -> x_{t+1}
        initial_state: Initial state x_0
        num_steps: Number of time steps T to simulate
        **kwargs: Optional extra arguments passed to f

    Returns:
        Array of shape (dim(x), T) containing the time series path
        [x_0, x_1, x_2, ..., x_{T-1}]
    """

    def update_wrapper(state, t):
        """
        Wrapper function that adapts f for use with JAX scan.
        """
        next_state = f(state, t, **kwargs)
        return next_state, state

    _, path = jax.lax.scan(update_wrapper,
                    initial_state, jnp.arange(num_steps))
    return path.T

@jax.jit
def compute_matrices(model: LakeModel):
    """Compute the transition matrices A and A_hat for the model."""
    λ, α, b, d = model.λ, model.α, model.b, model.d
    g = b - d
    A = jnp.array([[(1-d) * (1-λ) + b,      (1 - d) * α + b],
                   [        (1-d) * λ,      (1 - d) * (1 - α)]])
    A_hat = A / (1 + g)
    return A, A_hat, g


@jax.jit
def stock_update(current_stocks, time_step, model):
    """
    Apply transition matrix to get next period's stocks.
    """
    A, A_hat, g = compute_matrices(model)
    next_stocks = A @ current_stocks
    return next_stocks

@jax.jit
def rate_update(current_rates, time_step, model):
    """
    Apply normalized transition matrix for next period's rates.
    """
    A, A_hat, g = compute_matrices(model)
    next_rates = A_hat @ current_rates
    return next_rates

model = LakeModel()
model_new = LakeModel(α=0.03)

print(f"Default α: {model.α}")
A, A_hat, g = compute_matrices(model)
print(f"A matrix:\n{A}")

A_new, A_hat_new, g_new = compute_matrices(model_new)
print(f"New α: {model_new.α}")
print(f"New A matrix:\n{A_new}")

N_0 = 150      # Population
e_0 = 0.92     # Initial employment rate
u_0 = 1 - e_0  # Initial unemployment rate
T = 50         # Simulation length

U_0 = u_0 * N_0
E_0 = e_0 * N_0

fig, axes = plt.subplots(3, 1, figsize=(10, 8))
X_0 = jnp.array([U_0, E_0])
X_path = generate_path(stock_update, X_0, T, model=model)

axes[0].plot(X_path[0, :], lw=2)
axes[0].set_title('unemployment')

axes[1].plot(X_path[1, :], lw=2)
axes[1].set_title('employment')

axes[2].plot(X_path.sum(0), lw=2)
axes[2].set_title('labor force')

plt.tight_layout()
plt.show()

@jax.jit
def rate_steady_state(model: LakeModel):
    r"""
    Finds the steady state of the system :math:`x_{t+1} = \hat A x_{t}`
    by computing the eigenvector corresponding to the unit eigenvalue.
    """
    A, A_hat, g = compute_matrices(model)
    eigenvals, eigenvec = jnp.linalg.eig(A_hat)
    
    # Find the eigenvector corresponding to eigenvalue 1
    unit_idx = jnp.argmin(jnp.abs(eigenvals - 1.0))

    # Get the corresponding eigenvector
    steady_state = jnp.real(eigenvec[:, unit_idx])
    
    # Normalize to ensure positive values and sum to 1
    steady_state = jnp.abs(steady_state)
    steady_state = steady_state / jnp.sum(steady_state)
    
    return steady_state

A, A_hat, g = compute_matrices(model)
e, f = jnp.linalg.eigvals(A_hat)
print(f"Eigenvalue magnitudes: {abs(e):.2f}, {abs(f):.2f}")

xbar = rate_steady_state(model)

fig, axes = plt.subplots(2, 1, figsize=(10, 8))
x_0 = jnp.array([u_0, e_0])
x_path = generate_path(rate_update, x_0, T, model=model)

titles = ['unemployment rate', 'employment rate']

for i, title in enumerate(titles):
    axes[i].plot(x_path[i, :], lw=2, alpha=0.5)
    axes[i].hlines(xbar[i], 0, T, 'black', '--')
    axes[i].set_title(title)

plt.tight_layout()
plt.show()

@jax.jit
def markov_update(state, t, P, keys):
    """
    Sample next state from transition probabilities.
    """
    probs = P[state]
    state_new = jax.random.choice(keys[t],
                        a=jnp.arange(len(probs)),
                        p=probs)
    return state_new

model_markov = LakeModel(d=0, b=0)
T = 5000  # Simulation length

α, λ = model_markov.α, model_markov.λ

P = jnp.array([[1 - λ,        λ],
              [    α,    1 - α]])

xbar = rate_steady_state(model_markov)

# Simulate the Markov chain
key = jax.random.PRNGKey(0)
keys = jax.random.split(key, T)
s_path = generate_path(markov_update, 1, T, P=P, keys=keys)

fig, axes = plt.subplots(2, 1, figsize=(10, 8))
s_bar_e = jnp.cumsum(s_path) / jnp.arange(1, T+1)
s_bar_u = 1 - s_bar_e

to_plot = [s_bar_u, s_bar_e]
titles = ['percent of time unemployed', 'percent of time employed']

for i, plot in enumerate(to_plot):
    axes[i].plot(plot, lw=2, alpha=0.5)
    axes[i].hlines(xbar[i], 0, T, 'r', '--')
    axes[i].set_title(titles[i])

plt.tight_layout()
plt.show()

_report({"jit(generate_path)"}, 3)  # scaffolding
