# source: https://github.com/asantini29/phentax/pull/28
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR's fix, math.ceil(T / delta_t), keeps the step count a Python int at trace time: waveform compiles once for two calls.

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


import math
import jax
import jax.numpy as jnp


class IMRPhenomTHM:  # scaffolding: a stand-in for the waveform class; T and delta_t are concrete Python floats
    def __init__(self, T, delta_t):  # scaffolding
        self.T = T  # scaffolding
        self.delta_t = delta_t  # scaffolding

    def initial_processing(self):  # scaffolding: the method named in the PR
        T, delta_t = self.T, self.delta_t  # scaffolding
        n_steps = math.ceil(T / delta_t)
        return n_steps  # scaffolding

    def __call__(self, amplitude):  # scaffolding
        n_steps = self.initial_processing()  # scaffolding
        return amplitude * jnp.ones((n_steps,))  # scaffolding


wf = IMRPhenomTHM(4.0, 0.5)  # scaffolding


@jax.jit  # scaffolding: "Calling IMRPhenomTHM inside a jax.jit context raises a ConcretizationTypeError"
def waveform(amplitude):  # scaffolding
    return wf(amplitude)  # scaffolding


waveform(1.0)  # scaffolding
waveform(2.0)  # scaffolding
_report({"jit(waveform)"}, 2)  # scaffolding
