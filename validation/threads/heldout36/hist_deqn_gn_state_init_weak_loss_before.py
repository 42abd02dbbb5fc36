# source: https://github.com/deqn-jax/deqn-jax/commit/5ddd16486b304cc6ab6b4d0cf2c6fbc6ffccdcbd
# expect: shape-churn at line 58
# runtime: COMPILES 2 CALLS 5
# why: GaussNewton.init builds the optimizer state from Python scalars and a weak-typed jnp.asarray(jnp.inf); the jitted step returns a strongly typed float32 last_loss, so the second call sees a different input type and grad_step compiles twice.

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
from typing import Any, Callable, NamedTuple, Tuple

import jax
import jax.flatten_util
import jax.numpy as jnp
from jax import Array


class GaussNewtonState(NamedTuple):
    count: int  # Iteration count
    damping: float  # Current LM damping
    last_loss: Array  # Previous loss for adaptive damping


class GaussNewton:
    """Gauss-Newton optimizer for nonlinear least squares."""

    def __init__(
        self,
        learning_rate: float = 1.0,
        damping: float = 0.0,
        solve_method: str = "lstsq",
    ):
        self.learning_rate = learning_rate
        self.damping = damping
        self.solve_method = solve_method

    def init(self, params) -> GaussNewtonState:
        return GaussNewtonState(
            count=0, damping=self.damping, last_loss=jnp.asarray(jnp.inf)
        )

    def update(
        self,
        residual_fn: Callable,
        params: Any,
        state: GaussNewtonState,
        lr_scale: Any = 1.0,
    ) -> Tuple[Any, GaussNewtonState]:
        """Perform one GN step.

        Args:
            residual_fn: Function params -> flat residuals [n_residuals]
            params: Current parameters (pytree)
            state: Optimizer state

        Returns:
            Tuple of (new_params, new_state)
        """
        # Flatten params for linear algebra
        flat_params, unflatten = jax.flatten_util.ravel_pytree(params)
        n_params = flat_params.shape[0]

        # Wrap residual_fn to work with flat params
        def flat_residual_fn(flat_p):
            p = unflatten(flat_p)
            r = residual_fn(p)
            return jnp.ravel(r)

        # Compute residuals
        r = flat_residual_fn(flat_params)
        n_residuals = r.shape[0]

        # Compute Jacobian using autodiff
        # Choose forward or reverse mode based on dimensions
        if n_residuals <= n_params:
            J = jax.jacrev(flat_residual_fn)(flat_params)
        else:
            J = jax.jacfwd(flat_residual_fn)(flat_params)

        # Ensure minimum damping for numerical stability
        damping = jnp.maximum(state.damping, 1e-6)

        # Solve (J^T J + λI) δ = -J^T r
        # When n_residuals < n_params, use dual formulation (Woodbury):
        #   δ = -J^T (J J^T + λI)^{-1} r
        # Solves (n_res, n_res) system instead of (n_params, n_params).
        if n_residuals < n_params:
            G = J @ J.T + damping * jnp.eye(n_residuals)
            v = jnp.linalg.solve(G, r)
            delta = -J.T @ v
        else:
            JtJ = J.T @ J + damping * jnp.eye(n_params)
            delta = jnp.linalg.solve(JtJ, -(J.T @ r))

        # Match the train_step contract used by the other optimizers: when a
        # schedule is active, self.learning_rate is 1.0 and lr_scale carries
        # the per-step learning rate.
        step_size = self.learning_rate * lr_scale
        new_flat_params = flat_params + step_size * delta
        new_params = unflatten(new_flat_params)

        # Compute new loss (from updated params, not old residuals)
        new_r = flat_residual_fn(new_flat_params)
        new_loss = jnp.sum(new_r**2)

        new_state = GaussNewtonState(
            count=state.count + 1,
            damping=state.damping,
            last_loss=new_loss,
        )

        return new_params, new_state


# --- scaffolding: a stand-in for make_grad_step_gn's jitted grad_step and the training loop ---
class TrainState(NamedTuple):  # scaffolding
    params: Any
    opt_state: Any


xs = jnp.linspace(0.0, 1.0, 32)  # scaffolding: fit y = a*x + b by least squares
ys = 2.0 * xs + 0.5
opt = GaussNewton(learning_rate=1.0, damping=1e-4)


@jax.jit
def grad_step(state, lr_scale):
    def residual_fn(p):
        return p["a"] * xs + p["b"] - ys

    new_params, new_opt_state = opt.update(
        residual_fn, state.params, state.opt_state, lr_scale=lr_scale
    )
    return state._replace(params=new_params, opt_state=new_opt_state)


params = {"a": jnp.zeros(()), "b": jnp.zeros(())}  # scaffolding
state = TrainState(params=params, opt_state=opt.init(params))
lr_scale = jnp.asarray(1.0, dtype=jnp.float32)  # scaffolding
n_steps = 5  # scaffolding
for _ in range(n_steps):
    state = grad_step(state, lr_scale)
_report({"jit(grad_step)"}, n_steps)
