# source: https://github.com/nikihowe/myriad/commit/c1754e8ef5bbd1098f25302726812abc25413aa0
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The fix 'Fix integrate_in_parallel compilation' adds the step count to static_argnums=(0, 4), so N is a Python int at trace time and the jitted constraints compile once and are reused for every iterate.

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
# source/utils.py
from typing import Callable, Tuple, Optional, Union

import jax.numpy as jnp
from jax import jit, lax, vmap


def integrate(
  dynamics_t: Callable[[jnp.ndarray, float], jnp.ndarray],  # dynamics function
  x_0: jnp.ndarray,  # starting state
  interval_us: jnp.ndarray,  # controls
  h: float,  # step size
  N: int,  # steps
) -> Tuple[jnp.ndarray, jnp.ndarray]:
  # nh : hold u constant for each integration step (zero-order interpolation)
  # TODO: fix this (coming from later branch)
  @jit
  def rk4_step(x, u):
    k1 = dynamics_t(x, u)
    k2 = dynamics_t(x + h * k1 / 2, u)
    k3 = dynamics_t(x + h * k2 / 2, u)
    k4 = dynamics_t(x + h * k3, u)
    return x + (h / 6) * (k1 + 2 * k2 + 2 * k3 + k4)

  def fn(carried_state, idx):
    one_step_forward = rk4_step(carried_state, interval_us[idx])
    return one_step_forward, one_step_forward # (carry, y)

  x_T, all_next_states = lax.scan(fn, x_0, jnp.arange(N))
  return x_T, jnp.concatenate((x_0[None], all_next_states))


# Used for the augmented state cost calculation
integrate_in_parallel = jit(vmap(integrate, in_axes=(None, 0, 0, None, None)), static_argnums=(0, 4))


# source/systems.py: VanDerPol (plotting and the FiniteHorizonControlSystem base class left out: scaffolding)
class VanDerPol:
  x_0 = jnp.array([0., 1.])  # scaffolding: was passed to the base class
  T = 10.0  # scaffolding: was passed to the base class

  def dynamics(self, x_t: jnp.ndarray, u_t: float) -> jnp.ndarray:
    x0, x1 = x_t
    _x0 = jnp.squeeze((1. - x1**2) * x0 - x1 + u_t)
    _x1 = jnp.squeeze(x0)
    return jnp.asarray([_x0, _x1])


# source/optimizers.py: MultipleShootingOptimizer, the constraints it hands to ipopt
from jax.flatten_util import ravel_pytree
system = VanDerPol()  # scaffolding
intervals, controls_per_interval, control_shape = 10, 5, 1  # scaffolding: hp.intervals, hp.controls_per_interval
h_u = system.T / (intervals * controls_per_interval)  # scaffolding
x_guess = jnp.zeros((intervals + 1, 2))  # scaffolding: stand-in for the rk4 initial guess
u_guess = jnp.zeros(intervals * controls_per_interval)  # scaffolding
guess, unravel = ravel_pytree((x_guess, u_guess))


def constraints(variables: jnp.ndarray) -> jnp.ndarray:
  xs, us = unravel(variables)
  us = us.reshape(intervals, controls_per_interval, control_shape)
  us = jnp.squeeze(us) # removes the control shape dimension if it's 1
  px, _ = integrate_in_parallel(system.dynamics, xs[:-1], us, h_u, controls_per_interval)
  return jnp.ravel(px - xs[1:])


jit_constraints = jit(constraints)  # 'fun': jit(self.constraints) if self.cfg.jit else self.constraints
calls = 0  # scaffolding
try:  # scaffolding
  for it in range(3):  # scaffolding: ipopt evaluates the constraints at successive iterates
    c = jit_constraints(guess + 0.01 * it)
    calls += 1  # scaffolding
  _report({"jit(constraints)", "jit(integrate)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
