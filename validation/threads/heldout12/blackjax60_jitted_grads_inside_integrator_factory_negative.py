# source: https://github.com/blackjax-devs/blackjax/issues/60
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the integrator factory wraps the potential and kinetic gradients in jax.jit once per factory call, and one_step runs inside an outer jitted trajectory, so the inner jits are nested, inlined into the outer computation, and four trajectory calls compile once.

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
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp  # scaffolding

jax.tree_util.tree_multimap = jax.tree_util.tree_map  # scaffolding: tree_multimap was removed from JAX
PyTree = object  # scaffolding: blackjax.types.PyTree


class IntegratorState(NamedTuple):
    """State of the trajectory integration.

    We keep the gradient of the potential energy to speedup computations.
    """

    position: PyTree
    momentum: PyTree
    potential_energy: float
    potential_energy_grad: PyTree


def mclachlan(
    potential_fn: Callable, kinetic_energy_fn: Callable
):
    b1 = 0.1932
    a1 = 0.5
    b2 = 1 - 2 * b1

    potential_grad_fn = jax.jit(jax.value_and_grad(potential_fn))
    kinetic_energy_grad_fn = jax.jit(jax.grad(kinetic_energy_fn))

    def one_step(state: IntegratorState, step_size: float) -> IntegratorState:
        position, momentum, _, potential_energy_grad = state

        momentum = jax.tree_util.tree_multimap(
            lambda momentum, potential_grad: momentum - b1 * step_size * potential_grad,
            momentum,
            potential_energy_grad,
        )

        kinetic_grad = kinetic_energy_grad_fn(momentum)
        position = jax.tree_util.tree_multimap(
            lambda position, kinetic_grad: position + a1 * step_size * kinetic_grad,
            position,
            kinetic_grad,
        )

        _, potential_energy_grad = potential_grad_fn(position)
        momentum = jax.tree_util.tree_multimap(
            lambda momentum, potential_grad: momentum - b2 * step_size * potential_grad,
            momentum,
            potential_energy_grad,
        )

        kinetic_grad = kinetic_energy_grad_fn(momentum)
        position = jax.tree_util.tree_multimap(
            lambda position, kinetic_grad: position + a1 * step_size * kinetic_grad,
            position,
            kinetic_grad,
        )

        potential_energy, potential_energy_grad = potential_grad_fn(position)
        momentum = jax.tree_util.tree_multimap(
            lambda momentum, potential_grad: momentum - b1 * step_size * potential_grad,
            momentum,
            potential_energy_grad,
        )

        return IntegratorState(
            position, momentum, potential_energy, potential_energy_grad
        )

    return one_step


potential = lambda x: 0.5 * jnp.sum(x ** 2)  # scaffolding
kinetic = lambda p: 0.5 * jnp.sum(p ** 2)  # scaffolding
integrator = mclachlan(potential, kinetic)  # scaffolding


@jax.jit  # scaffolding
def trajectory(state, step_size):
    return jax.lax.fori_loop(0, 10, lambda i, s: integrator(s, step_size), state)


x0 = jnp.ones(3)  # scaffolding
state = IntegratorState(x0, jnp.ones(3), potential(x0), jax.grad(potential)(x0))  # scaffolding
_COMPILED.clear()  # scaffolding: count only the trajectory calls below
for i in range(4):  # scaffolding
    state = trajectory(state, 0.1)
print(sorted(set(_COMPILED)))  # scaffolding
_report({"jit(trajectory)"}, 4)  # scaffolding
