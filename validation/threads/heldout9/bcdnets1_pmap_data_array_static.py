# source: https://github.com/ermongroup/BCD-Nets/issues/1
# expect: unhashable-static at line 42
# runtime: ERROR ValueError
# why: parallel_gradient_step is pmapped with static_broadcasted_argnums=(3), which makes Xs, the numpy data matrix, a static argument; numpy arrays are unhashable, so the call in the training loop raises ValueError (Non-hashable static arguments are not supported).

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


# --- end harness ---
from functools import partial

import jax
import jax.numpy as jnp
import jax.random as rnd
import numpy as onp
from jax import lax, pmap


@partial(
    pmap,
    axis_name="i",
    in_axes=(0, 0, 0, None, 0, 0, 0, None),
    static_broadcasted_argnums=(3),
)
def parallel_gradient_step(
    P_params, L_params, L_states, Xs, P_opt_state, L_opt_state, rng_key, tau,
):
    rng_key, rng_key_2 = rnd.split(rng_key, 2)
    tau_scaling_factor = 1.0 / tau
    grad_P = lax.pmean(-tau_scaling_factor * P_params * jnp.mean(Xs), axis_name="i")  # scaffolding: stands in for the ELBO gradient
    return (
        P_params - grad_P,
        L_params,
        L_states,
        P_opt_state,
        L_opt_state,
        rng_key_2,
    )


Xs = onp.random.randn(20, 3)  # scaffolding: the observed data matrix
P_params = jnp.ones((1, 3))  # scaffolding: leading axis = one device
L_params = jnp.ones((1, 3))  # scaffolding
L_states = jnp.zeros((1, 3))  # scaffolding
P_opt_params = jnp.zeros((1, 3))  # scaffolding
L_opt_params = jnp.zeros((1, 3))  # scaffolding
rng_key = rnd.split(rnd.PRNGKey(0), 1)  # scaffolding
tau = 1.0  # scaffolding

try:  # scaffolding
    for i in range(1):  # scaffolding: num_steps -> 1
        (
            P_params,
            new_L_params,
            L_states,
            P_opt_params,
            new_L_opt_params,
            new_rng_key,
        ) = parallel_gradient_step(
            P_params, L_params, L_states, Xs, P_opt_params, L_opt_params, rng_key, tau,
        )
    print("COMPILES 1 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
