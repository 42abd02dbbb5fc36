# source: https://github.com/flatironinstitute/nemos/commit/4b6c421c630f5077fab519aa1797d77857eb34d1
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit jits run_m_step with the two callables static, so the solver is traced inside one compiled M-step that is reused for all 4 EM iterations.

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


from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp
from jax import Array
from jaxopt import LBFGS  # scaffolding: nemos vendors jaxopt as .third_party.jaxopt.jaxopt


# src/nemos/glm_hmm.py
def hmm_negative_log_likelihood(
    projection_weights,
    n_states,
    y,
    X,
    gammas,
    inverse_link_function: Callable,
    negative_log_likelihood_func: Callable,
):
    """Minimize expected log-likelihood."""

    if projection_weights.ndim > 2:
        tmpy = inverse_link_function(jnp.einsum("ik, kjw->ijw", X, projection_weights))
        nll = negative_log_likelihood_func(
            y,
            tmpy,
        ).sum(axis=1)
    else:
        tmpy = inverse_link_function(X @ projection_weights)
        nll = negative_log_likelihood_func(
            y,
            tmpy,
        )

    # Compute dot products between log-likelihood terms and gammas
    nll = jnp.sum(nll * gammas)

    return nll

@partial(
    jax.jit, static_argnames=("negative_log_likelihood_func", "inverse_link_function")
)
def run_m_step(
    X: Array,
    y: Array,
    gammas: Array,
    xis,
    projection_weights: Array,
    negative_log_likelihood_func: Callable,
    inverse_link_function: Callable,
    is_new_session,
    solver_kwargs: dict | None = None,
):
    """Run M-step."""

    # Update Initial state probability Eq. 13.18
    tmp_initial_prob = jnp.mean(gammas, axis=0, where=is_new_session[:, jnp.newaxis])
    new_initial_prob = tmp_initial_prob / jnp.sum(tmp_initial_prob)

    # Update Transition matrix Eq. 13.19
    new_transition_prob = xis / jnp.sum(xis, axis=1)[:, jnp.newaxis]

    if solver_kwargs is None:
        solver_kwargs = {}

    n_states = projection_weights.shape[1]

    # Use a lambda instead of partial to avoid re-triggering compilation
    def partial_hmm_negative_log_likelihood(w):
        return hmm_negative_log_likelihood(
            w,
            X=X,
            y=y,
            gammas=gammas,
            n_states=n_states,
            inverse_link_function=inverse_link_function,
            negative_log_likelihood_func=negative_log_likelihood_func,
        )

    # Minimize negative log-likelihood to update GLM weights
    solver = LBFGS(partial_hmm_negative_log_likelihood, **solver_kwargs)
    optimized_projection_weights, state = solver.run(projection_weights)

    return optimized_projection_weights, new_initial_prob, new_transition_prob, state


def poisson_nll(y, rate):  # scaffolding: the observation model's negative log-likelihood
    return rate - y * jnp.log(rate)


key1, key2, key3 = jax.random.split(jax.random.PRNGKey(0), 3)  # scaffolding: a 2-state model, 3 features, 200 bins
X = jax.random.normal(key1, (200, 3))
y = jax.random.poisson(key2, 2.0, (200, 1)).astype(jnp.float32)
gammas = jax.nn.softmax(jax.random.normal(key3, (200, 2)), axis=1)
xis = jnp.array([[90.0, 10.0], [10.0, 89.0]])
is_new_session = jnp.zeros(200, bool).at[0].set(True)
projection_weights = jnp.zeros((3, 2))
calls = 0
for em_iter in range(4):  # scaffolding: the M-steps of an EM loop
    projection_weights, init_prob, trans_prob, state = run_m_step(
        X, y, gammas, xis, projection_weights, poisson_nll, jnp.exp, is_new_session,
        solver_kwargs=dict(maxiter=5),
    )
    calls += 1
_report({"jit(run_m_step)", "jit(run)", "jit(update)", "jit(init_state)", "jit(_run)"}, calls)
