# source: https://github.com/alexlyttle/nbody-jax/blob/4650e7fff77c9fabf8a76bb02a0c60562ff177e4/nbody_jax.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The @jax.jit simulate() branches on `if times is not None`, keeps max_steps=1000000 as an unpassed default and receives a progress-meter object; None/pytree structure and unpassed defaults are static to jit, so three CLI runs with same-shaped inputs compile simulate once.

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

_ENABLE_X64 = True
jax.config.update("jax_enable_x64", _ENABLE_X64)

# (click import dropped: the CLI is called directly)
import jax.numpy as jnp
import numpy as np
# (matplotlib imports dropped: plotting and animation cut)

from pprint import pprint
from time import time
from diffrax import diffeqsolve, Dopri8, ODETerm, SaveAt, PIDController, SubSaveAt, TqdmProgressMeter, NoProgressMeter

_FLOAT_DTYPE = jnp.float64 if _ENABLE_X64 else jnp.float32
_DEFAULT_EPS = jnp.finfo(_FLOAT_DTYPE).eps**0.5


def pairwise_acceleration(position, eps=_DEFAULT_EPS):
    distance_squared = -2 * position @ position.T
    diag = -0.5 * jnp.einsum("ii->i", distance_squared)  # points to the diagonal inplace
    distance_squared += diag + diag[:, None]

    return jnp.sum(
        (position[:, None, :] - position) * (distance_squared[..., None] + eps)**-1.5,
        axis=0
    )

def vector_field(_t, y, _args):
    position, velocity = y
    acceleration = pairwise_acceleration(position)
    return (velocity, acceleration)

@jax.jit
def simulate(start_time, end_time, position, velocity, max_steps=1000000, times=None, progress_meter=None):
    term = ODETerm(vector_field)
    solver = Dopri8()

    subs = {
        "steps": SubSaveAt(steps=True),
    }

    if times is not None:
        subs["times"] = SubSaveAt(ts=times)

    # subs = jax.tree.map(lambda ts: SubSaveAt(ts=ts), time)
    saveat = SaveAt(subs=subs)

    rtol = 1e-7
    atol = 1e-9
    stepsize_controller = PIDController(rtol=rtol, atol=atol)

    # all_times = jnp.concatenate(jax.tree.leaves(time))     
    if progress_meter is None:
        progress_meter = NoProgressMeter()

    solution = diffeqsolve(
        term,
        solver,
        t0=start_time,
        t1=end_time,
        dt0=None,
        y0=(position, velocity),
        saveat=saveat,
        stepsize_controller=stepsize_controller,
        max_steps=max_steps,
        progress_meter=progress_meter,
    )

    return solution


# --- cli(num_points, ...) body (click decorators, plotting and animation cut) ---
def cli(num_points, num_dim=2, seed=0, duration=1.0, show_progress=False, animate=False,
        animation_duration=5.0, animation_fps=30.0):  # scaffolding: click options as keyword defaults
    rng = np.random.default_rng(seed=seed)
    init_position, init_velocity = rng.standard_normal((2, num_points, num_dim))

    times = None
    if animate:
        num_frames = int(animation_duration * animation_fps)
        times = jnp.linspace(0, duration, num_frames)

    progress_meter = NoProgressMeter()
    if show_progress:
        progress_meter = TqdmProgressMeter(refresh_steps=100)   

    start = time()
    solution = simulate(0.0, duration, init_position, init_velocity, times=times, progress_meter=progress_meter)
    elapsed = time() - start

    print(f"Completed in {elapsed:.3f} seconds.")
    return solution  # scaffolding


for seed in range(3):  # scaffolding: `python nbody_jax.py 3 --animate` run for 3 seeds
    cli(3, seed=seed, duration=0.5, animate=True, animation_duration=1.0, animation_fps=10.0)
_report({"jit(simulate)"}, 3)
