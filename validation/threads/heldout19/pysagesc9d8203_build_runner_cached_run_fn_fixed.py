# source: https://github.com/SSAGESLabs/PySAGES/commit/c9d8203e6b6d64af79412cd920ee03f593f3a754
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit builds the jitted step once and keeps it in a module-level container, and runs the timesteps in one lax.fori_loop, so the loop compiles once for all 3 runs.
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
from jax import jit
from jax import numpy as np
from typing import Callable, NamedTuple  # scaffolding
import dataclasses  # scaffolding: stands in for jax_md.dataclasses (replace)


@jax.tree_util.register_dataclass  # scaffolding: a jax-md NVE-like state
@dataclasses.dataclass
class MDState:
    position: jax.Array
    velocity: jax.Array
    force: jax.Array
    mass: jax.Array
    chain: None = dataclasses.field(default=None, metadata=dict(static=True))


class ContextState(NamedTuple):  # scaffolding: sampling_context_state with .state
    state: MDState


class Snapshot(NamedTuple):  # scaffolding: pysages Snapshot (fields used here)
    positions: jax.Array
    vel_mass: tuple
    forces: jax.Array


class MethodState(NamedTuple):  # scaffolding: a sampling-method state with a bias
    bias: jax.Array


def step_fn(s):  # scaffolding: one velocity-Verlet-like step of a harmonic system
    st = s.state
    v = st.velocity + 0.01 * st.force / st.mass
    x = st.position + 0.01 * v
    return ContextState(dataclasses.replace(st, position=x, velocity=v, force=-x))


class Context:  # scaffolding
    step_fn = staticmethod(step_fn)


def method_update(snapshot, state):  # scaffolding: harmonic bias on the first coordinate
    return MethodState(bias=-0.1 * snapshot.positions)


class Sampler:
    def __init__(self, method_bundle, context_state, callback: Callable):
        initial_snapshot, initialize, method_update = method_bundle
        self.state = initialize()
        self.callback = callback
        self.context_state = context_state
        self.snapshot = initial_snapshot
        self.update = method_update


def update_snapshot(snapshot, state):
    _, masses = snapshot.vel_mass
    positions = state.position
    vel_mass = (state.velocity, masses)
    forces = state.force
    if state.chain:
        chain_data = vars(state.chain)
        return snapshot._replace(
                positions=positions,
                vel_mass=vel_mass,
                forces=forces,
                chain_data=chain_data)
    else:
        return snapshot._replace(positions=positions, vel_mass=vel_mass, forces=forces)


jax_fn_container = {'is_defined': False, 'run_fn': None}

def build_runner(context, sampler, jit_compile=True):
    step_fn = context.step_fn

    if not jax_fn_container['is_defined']:
        jax_fn_container['is_defined'] = True

        def _step(sampling_context_state, snapshot, sampler_state):
            sampling_context_state = step_fn(sampling_context_state)  # jax_md simulation step
            context_state = sampling_context_state.state
            snapshot = update_snapshot(snapshot, context_state)
            sampler_state = sampler.update(snapshot, sampler_state)  # pysages update
            if sampler_state.bias is not None:  # bias the simulation
                context_state = sampling_context_state.state
                biased_forces = context_state.force + sampler_state.bias
                context_state = dataclasses.replace(context_state, force=biased_forces)
                sampling_context_state = sampling_context_state._replace(state=context_state)
            return sampling_context_state, snapshot, sampler_state

        step = jit(_step) if jit_compile else _step

        def _run_body(i, input_states_and_snapshots):
            context_state, snapshot, sampler_state = input_states_and_snapshots
            return tuple(step(context_state, snapshot, sampler_state))

        run_body = jit(_run_body) if jit_compile else _run_body

        jax_fn_container['run_fn'] = run_body

    def run(timesteps):
        # TODO: Allow to optionally batch timesteps with `lax.fori_loop`

        sampler.context_state, sampler.snapshot, sampler.state = jax.block_until_ready(
                jax.lax.fori_loop(0, timesteps, jax_fn_container['run_fn'], (sampler.context_state, sampler.snapshot, sampler.state))
            )

    return run


def new_sampler():  # scaffolding: what bind() builds for each run (restart)
    x = np.ones((8, 3))
    st = MDState(x, np.zeros((8, 3)), -x, np.ones((8, 1)))
    snap = Snapshot(x, (st.velocity, st.mass), st.force)
    return Sampler((snap, lambda: MethodState(np.zeros((8, 3))), method_update), ContextState(st), None)


for restart in range(3):  # scaffolding: a run and two restarts, 5 timesteps each
    sampler = new_sampler()
    run = build_runner(Context(), sampler)
    run(5)
_report({"jit(scan)", "jit(_run_body)", "jit(_step)"}, 3)  # scaffolding: 3 runs (fori_loop with concrete bounds compiles as scan)
