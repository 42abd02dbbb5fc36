# source: https://github.com/gbionics/jaxsim/pull/183
# expect: stale-closure at line 119
# runtime: COMPILES 1 CALLS 2
# why: the integrator's system dynamics are built by wrap_system_dynamics_for_integration, which closes over a copy of the model it was created with; the jitted step forwards only joint_forces/link_forces to integrator.step, so the model argument passed to step is traced but never reaches the dynamics, and stepping a modified model of the same structure silently reuses the compiled step with the original model's parameters (a stale result).

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
from typing import Any, Callable

import flax
import jax
import jax.numpy as jnp


class JaxSimModel(flax.struct.PyTreeNode):  # scaffolding: stand-in model (one joint)
    mass: jnp.ndarray

    def copy(self):
        return self.replace()


class JaxSimModelData(flax.struct.PyTreeNode):  # scaffolding: stand-in data
    state: jnp.ndarray  # (position, velocity)
    time_ns: jnp.ndarray

    def copy(self):
        return self.replace()


def system_dynamics(model, data, joint_forces=None, link_forces=None):  # scaffolding: ODE right-hand side
    return jnp.array([data.state[1], joint_forces[0] / model.mass]), {}


def wrap_system_dynamics_for_integration(model, data, *, system_dynamics, **kwargs):
    # We allow to close `system_dynamics` over additional kwargs.
    kwargs_closed = kwargs.copy()

    # Create a local copy of model and data.
    # The wrapped dynamics will hold a reference of this object.
    model_closed = model.copy()
    data_closed = data.copy().replace(state=jnp.zeros(2))

    def f(x, t, **kwargs_f):

        # Allow caller to override the closed data and model objects.
        data_f = kwargs_f.pop("data", data_closed)
        model_f = kwargs_f.pop("model", model_closed)

        # Update the state and time stored inside data.
        data_rw = data_f.replace(state=x, time_ns=jnp.array(t * 1e9).astype(data_f.time_ns.dtype))

        # Evaluate the system dynamics, allowing to override the kwargs originally
        # passed when the closure was created.
        return system_dynamics(
            model=model_f,
            data=data_rw,
            **(kwargs_closed | kwargs_f),
        )

    return f


class ForwardEuler(flax.struct.PyTreeNode):  # scaffolding: stand-in for jaxsim.integrators
    dynamics: Callable = flax.struct.field(pytree_node=False)

    def step(self, x0, t0, dt, params, **kwargs):
        xdot, _ = self.dynamics(x0, t0, **kwargs)
        return x0 + dt * xdot, params


@jax.jit
def step(
    model: JaxSimModel,
    data: JaxSimModelData,
    *,
    dt,
    integrator: ForwardEuler,
    integrator_state: dict[str, Any] | None = None,
    joint_forces=None,
    link_forces=None,
    **kwargs,
):
    integrator_kwargs = kwargs if kwargs is not None else dict()
    integrator_state = integrator_state if integrator_state is not None else dict()

    # Extract the initial resources.
    t0_ns = data.time_ns
    state_x0 = data.state
    integrator_state_x0 = integrator_state

    # Step the dynamics forward.
    state_xf, integrator_state_xf = integrator.step(
        x0=state_x0,
        t0=jnp.array(t0_ns / 1e9).astype(float),
        dt=dt,
        params=integrator_state_x0,
        **(
            dict(joint_forces=joint_forces, link_forces=link_forces) | integrator_kwargs
        ),
    )

    return (
        # Store the new state of the model and the new time.
        data.replace(
            state=state_xf,
            time_ns=t0_ns + jnp.array(dt * 1e9).astype(jnp.uint32),
        ),
        integrator_state_xf,
    )


model = JaxSimModel(mass=jnp.array(1.0))  # scaffolding
data = JaxSimModelData(state=jnp.zeros(2), time_ns=jnp.array(0, jnp.uint32))  # scaffolding
integrator = ForwardEuler(  # scaffolding: integrator.build(...)
    dynamics=wrap_system_dynamics_for_integration(model, data, system_dynamics=system_dynamics)
)
results = []  # scaffolding
for mass in (1.0, 2.0):  # scaffolding: parametric model with the same pytree structure
    model_p = model.replace(mass=jnp.array(mass))
    data_next, _ = step(model_p, data, dt=0.1, integrator=integrator, joint_forces=jnp.array([1.0]))
    results.append(float(data_next.state[1]))  # scaffolding
print("velocity after one step for mass 1 and mass 2:", results, "expected [0.1, 0.05]")  # scaffolding
_report({"jit(step)"}, 2)  # scaffolding
