# source: https://github.com/brentyi/egoallo/issues/17
# expect: trace-time-error at line 67
# runtime: ERROR TypeError
# why: max_iters is an ordinary (traced) field of the jax_dataclasses pytree passed to the jitted _optimize_vmapped, so the solver's per-iteration buffer jnp.zeros((max_iters,)) gets a traced shape and raises 'Shapes must be 1D sequences of concrete values'.

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
import jax_dataclasses as jdc


@jdc.pytree_dataclass
class JaxGuidanceParams:
    prior_quat_weight: float = 1.0
    prior_pos_weight: float = 5.0
    body_quat_vel_smoothness_weight: float = 5.0
    body_quat_smoothness_weight: float = 1.0
    body_quat_delta_smoothness_weight: float = 10.0
    skate_weight: float = 30.0

    # Note: this should be quite high. If the hand quaternions aren't
    # constrained enough the reprojecction loss can get wild.
    hand_quats: jdc.Static[bool] = True
    hand_quat_weight = 5.0

    hand_quat_priors: jdc.Static[bool] = True
    hand_quat_prior_weight = 0.1
    hand_quat_smoothness_weight = 1.0

    hamer_reproj: jdc.Static[bool] = True
    hand_reproj_weight: float = 1.0

    hamer_wrist_pose: jdc.Static[bool] = True
    hamer_abspos_weight: float = 20.0
    hamer_ori_weight: float = 5.0

    aria_wrists: jdc.Static[bool] = True
    aria_wrist_pos_weight: float = 50.0
    aria_wrist_ori_weight: float = 10.0

    # Optimization parameters.
    lambda_initial: float = 0.1
    max_iters: int = 20


def _solve(cost_fn, x0, lambda_initial, max_iterations):
    # scaffolding: stands in for jaxls' Levenberg-Marquardt solve, which keeps a per-iteration
    # history of size max_iterations
    history = jnp.zeros((max_iterations,))

    def body(i, carry):
        x, history = carry
        x = x - lambda_initial * jax.grad(cost_fn)(x)
        return x, history.at[i].set(cost_fn(x))

    return jax.lax.fori_loop(0, max_iterations, body, (x0, history))


def _optimize(betas, body_rotmats, guidance_params: JaxGuidanceParams, verbose: bool):
    # scaffolding: one smoothness-style cost instead of the paper's guidance costs
    def cost_fn(x):
        return guidance_params.body_quat_smoothness_weight * jnp.sum(jnp.diff(x, axis=0) ** 2) + jnp.sum(
            (x - body_rotmats) ** 2
        )

    x, history = _solve(cost_fn, body_rotmats, guidance_params.lambda_initial, guidance_params.max_iters)
    return x, {"history": history}


@jdc.jit
def _optimize_vmapped(
    betas: jax.Array,
    body_rotmats: jax.Array,
    guidance_params: JaxGuidanceParams,
    verbose: jdc.Static[bool],
) -> tuple[jax.Array, dict]:
    return jax.vmap(
        partial(
            _optimize,
            guidance_params=guidance_params,
            verbose=verbose,
        )
    )(
        betas=betas,
        body_rotmats=body_rotmats,
    )


# scaffolding: two samples, eight timesteps, the "post" phase parameters of the no_hands mode
guidance_params = JaxGuidanceParams(
    hand_quats=False,
    hand_quat_priors=False,
    hamer_reproj=False,
    hamer_wrist_pose=False,
    aria_wrists=False,
    max_iters=20,
)
betas = jnp.zeros((2, 16))
body_rotmats = jnp.ones((2, 8, 3))
try:
    quats, debug_info = _optimize_vmapped(betas, body_rotmats, guidance_params, verbose=False)
    _report({"jit(_optimize_vmapped)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
