# source: https://github.com/google-deepmind/kfac-jax/commit/320d0257e56d52163a50e116053a4981b99aec5b
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: The commit's fix: should_update_damping also requires use_adaptive_damping, so with adaptive damping off the static flag is always False and _step compiles once for ten steps.

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
import functools

import jax
import jax.numpy as jnp


class Optimizer:
  """scaffolding: kfac_jax Optimizer reduced to the step staging and the damping logic
  (curvature is a running diagonal of squared gradients; jax.jit stands in for utils.staged)."""

  def __init__(self, value_and_grad_func, *, use_adaptive_damping=False,
               damping_adaptation_interval=5, curvature_update_period=1):
    self._value_and_grad_func = value_and_grad_func
    self._use_adaptive_damping = use_adaptive_damping
    self._damping_adaptation_interval = damping_adaptation_interval
    self._curvature_update_period = curvature_update_period

  def should_update_damping(self, step_counter: int) -> bool:
    """Whether at the current step the optimizer should update the damping."""
    return ((step_counter + 1) % self._damping_adaptation_interval == 0) and (
        self._use_adaptive_damping
    )

  def should_update_estimate_curvature(self, step_counter: int) -> bool:
    """Whether at the current step the optimizer should update the curvature estimates."""
    return step_counter % self._curvature_update_period == 0

  @functools.partial(jax.jit, static_argnums=(0, 6, 7))
  def _step(self, params, state, batch, learning_rate, damping,
            should_update_estimate_curvature, should_update_damping):
    """A single full step of the optimizer."""
    loss, grads = self._value_and_grad_func(params, batch)
    curvature = state["curvature"]
    if should_update_estimate_curvature:
      curvature = 0.95 * curvature + 0.05 * grads ** 2
    delta = -learning_rate * grads / (curvature + damping)
    new_params = params + delta

    if should_update_damping:
      new_loss, _ = self._value_and_grad_func(new_params, batch)
      rho = (new_loss - loss) / jnp.sum(grads * delta)
      damping = jnp.where(rho > 0.75, damping * 0.9, jnp.where(rho < 0.25, damping * 1.1, damping))

    state = dict(state, curvature=curvature, damping=damping, step_counter=state["step_counter"] + 1)
    return new_params, state, loss

  def step(self, params, state, batch, learning_rate):
    step_counter_int = int(state["step_counter"])

    should_update_estimate_curvature = self.should_update_estimate_curvature(
        step_counter_int
    )
    should_update_damping = self.should_update_damping(step_counter_int)

    return self._step(
        params, state, batch, learning_rate, state["damping"],
        should_update_estimate_curvature, should_update_damping)


# scaffolding: least squares with a fixed damping (use_adaptive_damping=False), ten steps
def value_and_grad_func(params, batch):
  x, y = batch
  return jax.value_and_grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)


key = jax.random.PRNGKey(0)
x = jax.random.normal(key, (64, 4))
y = x @ jnp.array([1.0, -2.0, 0.5, 3.0])
optimizer = Optimizer(value_and_grad_func, use_adaptive_damping=False, damping_adaptation_interval=5)
params = jnp.zeros(4)
state = {"curvature": jnp.zeros(4), "damping": jnp.float32(1e-3), "step_counter": jnp.int32(0)}
calls = 0
for i in range(10):
  params, state, loss = optimizer.step(params, state, (x, y), jnp.float32(0.1))
  calls += 1
_report({"jit(_step)"}, calls)
