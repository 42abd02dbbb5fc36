# source: https://github.com/EQuS/jaxquantum/commit/969c4de2b57c98fb47637670b338e3b70716b905
# expect: trace-time-error at line 97
# runtime: ERROR TracerBoolConversionError
# why: solve() decides the SaveAt mode with a Python `if ... saveat_tlist == tlist[-1]`; when tlist is traced (solve called inside jax.jit with the time grid as an argument) the comparison is a tracer and bool() raises TracerBoolConversionError.

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
"""Solvers"""

from diffrax import (
    diffeqsolve,
    ODETerm,
    SaveAt,
    PIDController,
    TqdmProgressMeter,
    NoProgressMeter,
)
from flax import struct
from jax import Array
from typing import Callable, Optional, Union
import diffrax
import jax.numpy as jnp
import warnings
import tqdm
import logging


import jax  # scaffolding
# jaxquantum.core imports (Qarray, conversions, operators, utils) not needed here: scaffolding

# ----


@struct.dataclass
class SolverOptions:
    progress_meter: bool = struct.field(pytree_node=False)
    solver: str = (struct.field(pytree_node=False),)
    max_steps: int = (struct.field(pytree_node=False),)
    rtol: float = (struct.field(pytree_node=False),)
    atol: float = (struct.field(pytree_node=False),)

    @classmethod
    def create(
        cls,
        progress_meter: bool = True,
        solver: str = "Tsit5",
        max_steps: int = 100_000,
        rtol: float = 1e-7,
        atol: float = 1e-9,
    ):
        return cls(progress_meter, solver, max_steps, rtol, atol)


class CustomProgressMeter(TqdmProgressMeter):
    @staticmethod
    def _init_bar() -> tqdm.tqdm:
        bar_format = "{desc}: {percentage:3.0f}% |{bar}| [{elapsed}<{remaining}, {rate_fmt}{postfix}]"
        return tqdm.tqdm(
            total=100, bar_format=bar_format, unit="%", colour="MAGENTA", ascii="░▒█"
        )


def solve(f, ρ0, tlist, saveat_tlist, args, solver_options: Optional[
    SolverOptions] = None):
    """Gets teh desired solver from diffrax.

    Args:
        solver_options: dictionary with solver options

    Returns:
        solution
    """

    # f and ts
    term = ODETerm(f)
    if saveat_tlist.shape[0] == 1 and saveat_tlist == tlist[-1]:
        saveat = SaveAt(t1=True)
    else:
        saveat = SaveAt(ts=saveat_tlist)

    # solver
    solver_options = solver_options or SolverOptions.create()

    solver_name = solver_options.solver
    solver = getattr(diffrax, solver_name)()
    stepsize_controller = PIDController(rtol=solver_options.rtol, atol=solver_options.atol)

    # solve!
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore",
                                message="Complex dtype support in Diffrax",
                                category=UserWarning)  # NOTE: suppresses complex dtype warning in diffrax
        sol = diffeqsolve(
            term,
            solver,
            t0=tlist[0],
            t1=tlist[-1],
            dt0=tlist[1] - tlist[0],
            y0=ρ0,
            saveat=saveat,
            stepsize_controller=stepsize_controller,
            args=args,
            max_steps=solver_options.max_steps,
            progress_meter=CustomProgressMeter()
            if solver_options.progress_meter
            else NoProgressMeter(),
        )

    return sol


import numpy as np  # scaffolding
SAVE_T = np.array([2.0])  # scaffolding: save only at t = 2 (a one-element NumPy saveat list)
sx = jnp.array([[0, 1], [1, 0]], dtype=jnp.complex64)  # scaffolding
psi0 = jnp.array([1, 0], dtype=jnp.complex64)  # scaffolding


def f(t, y, args):  # scaffolding: Schrodinger equation for H = omega * sigma_x
    return -1j * args * (sx @ y)


@jax.jit  # scaffolding: a jitted parameter sweep that passes its time grid to solve
def run(omega, tlist):  # scaffolding
    sol = solve(f, psi0, tlist, SAVE_T, omega, SolverOptions.create(progress_meter=False))  # scaffolding
    return jnp.abs(sol.ys[-1]) ** 2  # scaffolding


tlist = jnp.linspace(0.0, 2.0, 41)  # scaffolding
omegas = [0.5, 1.0, 1.5, 2.0]  # scaffolding
try:  # scaffolding
    for om in omegas:  # scaffolding
        pops = run(om, tlist)  # scaffolding
    print(pops)  # scaffolding
    _report({"jit(run)"}, len(omegas))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
