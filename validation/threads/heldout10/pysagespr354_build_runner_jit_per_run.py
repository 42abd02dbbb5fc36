# source: https://github.com/SSAGESLabs/PySAGES/pull/354
# expect: jit-in-loop-or-body at line 136
# runtime: COMPILES 3 CALLS 6
# why: The jax-md backend's build_runner wraps the step function in a fresh jit(_step) every time a sampling context is bound, and pysages.run binds a new one on every call; repeated runs (restarts) therefore retrace and recompile the identical step each time instead of reusing it.

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
from jax import jit
from jax import numpy as np


class MDState(NamedTuple):  # scaffolding: jax_md simulate state
    position: jax.Array
    velocity: jax.Array
    force: jax.Array
    mass: jax.Array


class ContextState(NamedTuple):  # scaffolding
    state: MDState


class Snapshot(NamedTuple):  # scaffolding: pysages.backends.snapshot.Snapshot, reduced
    positions: jax.Array
    vel_mass: tuple
    forces: jax.Array
    ids: jax.Array


class BiasState(NamedTuple):  # scaffolding
    bias: jax.Array


class Context(NamedTuple):  # scaffolding: jax-md context from a generator
    init_fn: Callable
    step_fn: Callable
    dt: float


def generate_context(n=4, dt=0.01):  # scaffolding
    def init_fn(**kwargs):
        x = np.linspace(-1.0, 1.0, n)
        return ContextState(MDState(x, np.zeros(n), -x, np.ones(n)))

    def step_fn(cs):
        s = cs.state
        v = s.velocity + 0.5 * dt * s.force / s.mass
        x = s.position + dt * v
        f = -x
        v = v + 0.5 * dt * f / s.mass
        return ContextState(MDState(x, v, f, s.mass))

    return Context(init_fn, step_fn, dt)


class SamplingContext:  # scaffolding
    def __init__(self, method, context):
        self.method = method
        self.context = context
        self.run = None


class HarmonicBias:  # scaffolding: method.build returns (snapshot, initialize, update)
    def build(self, snapshot):
        def initialize():
            return BiasState(np.zeros_like(snapshot.positions))

        def update(snapshot, state):
            return BiasState(-0.1 * snapshot.positions)

        return snapshot, initialize, update


class Sampler:
    def __init__(self, method_bundle, context_state, callback: Callable):
        initial_snapshot, initialize, method_update = method_bundle
        self.state = initialize()
        self.callback = callback
        self.context_state = context_state
        self.snapshot = initial_snapshot
        self.update = method_update


def take_snapshot(state):  # scaffolding: reduced
    return Snapshot(state.position, (state.velocity, state.mass.reshape(-1, 1)), state.force,
                    np.arange(len(state.position)))


def update_snapshot(snapshot, state):
    _, masses = snapshot.vel_mass
    positions = state.position
    vel_mass = (state.velocity, masses)
    forces = state.force
    return snapshot._replace(positions=positions, vel_mass=vel_mass, forces=forces)


def build_runner(context, sampler, jit_compile=True):
    step_fn = context.step_fn

    def _step(sampling_context_state, snapshot, sampler_state):
        context_state = sampling_context_state.state
        snapshot = update_snapshot(snapshot, context_state)
        sampling_context_state = step_fn(sampling_context_state)  # jax_md simulation step
        sampler_state = sampler.update(snapshot, sampler_state)  # pysages update
        if sampler_state.bias is not None:  # bias the simulation
            context_state = sampling_context_state.state
            biased_forces = context_state.force + sampler_state.bias
            context_state = context_state._replace(force=biased_forces)  # scaffolding: dataclasses.replace on the jax-md dataclass
            sampling_context_state = sampling_context_state._replace(state=context_state)
        return sampling_context_state, snapshot, sampler_state

    step = jit(_step) if jit_compile else _step

    def run(timesteps):
        # TODO: Allow to optionally batch timesteps with `lax.fori_loop`
        for i in range(timesteps):
            context_state, snapshot, state = step(
                sampler.context_state, sampler.snapshot, sampler.state
            )
            sampler.context_state = context_state
            sampler.snapshot = snapshot
            sampler.state = state
            if sampler.callback:
                sampler.callback(sampler.snapshot, sampler.state, i)

    return run


def bind(sampling_context: SamplingContext, callback: Callable, **kwargs):
    context = sampling_context.context
    sampling_method = sampling_context.method
    context_state = context.init_fn(**kwargs)
    snapshot = take_snapshot(context_state.state)  # scaffolding: box and dt dropped
    method_bundle = sampling_method.build(snapshot)  # scaffolding: helpers dropped
    sampler = Sampler(method_bundle, context_state, callback)
    sampling_context.run = build_runner(
        context, sampler, jit_compile=kwargs.get("jit_compile", True)
    )
    return sampler


def run(method, context_generator, timesteps, callback=None, **kwargs):  # scaffolding: pysages.run, reduced
    sampling_context = SamplingContext(method, context_generator())
    sampler = bind(sampling_context, callback, **kwargs)
    sampling_context.run(timesteps)
    return sampler


method = HarmonicBias()  # scaffolding
for restart in range(3):  # scaffolding: three short runs in a row
    run(method, generate_context, timesteps=2)
_report({"jit(_step)"}, 6)  # scaffolding
