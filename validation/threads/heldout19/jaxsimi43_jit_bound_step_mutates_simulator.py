# source: https://github.com/gbionics/jaxsim/issues/43
# expect: stale-closure at line 49
# runtime: ERROR Exception
# why: sim.step is a bound method of a mutable simulator that stores the new state on self; jitting it (sim.step = jax.jit(sim.step)) writes traced values into the simulator, and with JAX_CHECK_TRACER_LEAKS=1, as in the MRE, the call raises for the leaked tracers.
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

import jax
import jax.numpy as jnp

jax.config.update("jax_check_tracer_leaks", True)  # scaffolding: the MRE runs with JAX_CHECK_TRACER_LEAKS=1


class JaxSim:  # scaffolding: a mutable stand-in for jaxsim.JaxSim (double pendulum, semi-implicit Euler)
    def __init__(self, step_size):
        self.step_size = step_size
        self.data = {"q": jnp.array([0.3, -0.2]), "qd": jnp.zeros(2), "time": jnp.array(0.0)}

    def step(self):
        q, qd = self.data["q"], self.data["qd"]
        qdd = -9.81 * jnp.sin(q)
        qd = qd + self.step_size * qdd
        q = q + self.step_size * qd
        self.data = {"q": q, "qd": qd, "time": self.data["time"] + self.step_size}
        return self.data


sim = JaxSim(step_size=0.001)  # scaffolding: JaxSim.build(step_size=0.001, ...).mutable(...) + insert_model_from_description

# The problem occurs only if we jit-compile the method
sim.step = jax.jit(sim.step)

try:  # scaffolding
    step_data = sim.step()
    _report({"jit(step)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
