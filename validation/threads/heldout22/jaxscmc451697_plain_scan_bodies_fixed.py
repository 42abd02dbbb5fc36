# source: https://github.com/mpierzyna/jax_scm/commit/c451697cd449b5eb9d7ffc27a0bca6d44d1ac708
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The commit's change: no jax.jit on the step functions and scan bodies, so the whole outer scan is compiled as one program (the warm-up Euler step now runs op by op).
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
import dataclasses
import time
from typing import Callable, Tuple

import jax
from jax import numpy as jnp


class IterationTimer:
    """JAX callback to print timing information during iterations."""

    def __init__(self, n_total: int):
        self.last_time = None
        self.start_time = None
        self.n_total = n_total
        self.i = 0

    def callback(self, t: int):
        current_time = time.time()
        if self.last_time is None:
            self.start_time = current_time
        self.last_time = current_time  # scaffolding: progress printing left out
        self.i += 1

    def finalize(self):
        pass  # scaffolding: elapsed-time printing left out


def clip_state(y):
    """Clip state variables to physically meaningful ranges."""
    if hasattr(y, "qv"):
        y = dataclasses.replace(y, qv=jnp.clip(y.qv, min=0))  # no negative humidity
    return y


def get_euler_step_fn(model) -> Callable:
    """Euler integrator factory."""

    def _euler(t_s, dt_s, y0):
        """Euler integration. y0 is model state, dydt0 are ODE tendencies"""
        dydt0, diag0, mo_res0 = model(t_s, y0)
        y1 = jax.tree_util.tree_map(lambda y, dy: y + dt_s * dy, y0, dydt0)
        y1 = clip_state(y1)
        return y1, dydt0, diag0, mo_res0

    return _euler


def get_ab2_step_fn(model) -> Callable:
    """Two-step Adams-Bashforth integrator factory."""

    def _ab2(t_s, dt_s, y1, dydt0):
        """Two-step Adams-Bashforth integration. y1 is state (i-1), dydt0 are tendencies (i-2)."""
        dydt1, diag1, mo_res1 = model(t_s, y1)
        dydt_ab = jax.tree_util.tree_map(lambda d1, d0: (3 / 2) * d1 - (1 / 2) * d0, dydt1, dydt0)
        y2 = jax.tree_util.tree_map(lambda y, dy: y + dt_s * dy, y1, dydt_ab)
        y2 = clip_state(y2)
        return y2, dydt1, diag1, mo_res1

    return _ab2


def simulate_ab2_fixed(model, sim, dt_s: float, dt_s_out: float):
    """Simulate model with AB2 and constant timestep."""
    # Setup time integration
    _euler = get_euler_step_fn(model)
    _ab2 = get_ab2_step_fn(model)

    # Setup timestep arrays
    # Inner steps shifted by dt because initial Euler step is taken outside loop
    t_outer = jnp.arange(sim.t_start_s, sim.t_end_s, dt_s_out)
    rel_t_inner = jnp.arange(0, dt_s_out, dt_s) + dt_s  # relative to outer step
    print(
        f"Inner steps: {len(rel_t_inner)}, "
        f"Outer steps: {len(t_outer)}, "
        f"Total steps: {len(t_outer) * len(rel_t_inner)}"
    )
    timer = IterationTimer(n_total=len(t_outer))

    def _scan_inner(carry, t):
        """Advance model by one step but don't accumulate outputs"""
        y1, dydt0, _, _ = carry
        y2, dydt1, diag1, mo_res1 = _ab2(t, dt_s, y1, dydt0)
        return (y2, dydt1, diag1, mo_res1), None

    def _scan_outer(carry, t):
        """Advance model by inner steps and accumulate outputs"""
        carry_new, _ = jax.lax.scan(_scan_inner, init=carry, xs=t + rel_t_inner)
        jax.debug.callback(timer.callback, t + dt_s_out)
        return carry_new, carry_new

    y0 = sim.init
    y1, dydt0, diag0, mo_res0 = _euler(t_outer[0], dt_s, y0)  # Warmup: one Euler step
    _, (y_hist, _, diag_hist, mo_hist) = jax.lax.scan(_scan_outer, init=(y1, dydt0, diag0, mo_res0), xs=t_outer)
    timer.finalize()

    return y_hist, diag_hist, mo_hist, t_outer


@jax.tree_util.register_dataclass  # scaffolding: a two-variable column state and a diffusion model
@dataclasses.dataclass
class ProgVars:
    theta: jax.Array
    qv: jax.Array


@dataclasses.dataclass
class Simulation:  # scaffolding
    t_start_s: float
    t_end_s: float
    init: ProgVars


def model(t_s, y):  # scaffolding
    lap = lambda f: jnp.roll(f, 1) - 2 * f + jnp.roll(f, -1)
    dydt = ProgVars(theta=1e-3 * lap(y.theta), qv=1e-3 * lap(y.qv) - 1e-6)
    return dydt, {"K": jnp.mean(y.theta)}, jnp.sum(y.qv)


sim = Simulation(t_start_s=0.0, t_end_s=600.0, init=ProgVars(theta=jnp.linspace(290.0, 300.0, 32), qv=jnp.full(32, 0.01)))  # scaffolding
y_hist, diag_hist, mo_hist, t_out = simulate_ab2_fixed(model, sim, dt_s=10.0, dt_s_out=60.0)  # scaffolding
_report({"jit(_euler)", "jit(_scan_outer)", "jit(scan)"}, 1)  # scaffolding
