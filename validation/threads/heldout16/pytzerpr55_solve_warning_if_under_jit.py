# source: https://github.com/mvdh7/pytzer/pull/55
# expect: trace-time-error at line 98
# runtime: ERROR TracerBoolConversionError
# why: pytzer's _solve (whose docstring invites users to JIT it) ends with Python `if np.any(np.abs(stoich_adjust) > warn_cutoff):` warning checks; under jax.jit stoich_adjust is traced, so the if raises TracerBoolConversionError (the PR replaces these ifs with jax-compatible conditionals).
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
import warnings
from collections import namedtuple
from types import SimpleNamespace  # scaffolding

import jax
from jax import numpy as np

library = SimpleNamespace(  # scaffolding: stand-in for pytzer.model.library
    totals_all=("Na", "Cl", "CO2"),  # scaffolding
    equilibria_all=("H2O", "H2CO3"),  # scaffolding
    equilibria={"H2O": lambda T: -32.0 + 0.01 * T, "H2CO3": lambda T: -14.0 + 0.005 * T},  # scaffolding
    get_stoich_targets=lambda totals: np.array([totals["CO2"]]),  # scaffolding
    stoich_init=lambda totals: np.array([-3.0]),  # scaffolding
)


@jax.jit
def get_stoich_adjust(stoich, totals, thermo, stoich_targets):  # scaffolding: stand-in
    return 0.5 * (stoich_targets - np.exp(stoich)) * 1e-3  # scaffolding


@jax.jit
def get_thermo_adjust(thermo, totals, temperature, pressure, stoich, thermo_targets):  # scaffolding: stand-in
    return 0.5 * (thermo_targets - thermo)  # scaffolding


SolveResultRaw = namedtuple(
    "SolveResultRaw", ["stoich", "thermo", "stoich_adjust", "thermo_adjust"]
)


def _solve(
    totals,
    temperature,
    pressure,
    stoich=None,
    thermo=None,
    iter_thermo=6,
    iter_stoich_per_thermo=3,
    verbose=False,
    warn_cutoff=1e-8,
):
    """Solve for equilibrium.

    This function is not JIT-ed by default, because it takes a lot longer to compile,
    but you can JIT it yourself to get a ~2x speedup.
    """
    # Solver targets---known from the start
    totals = totals.copy()
    totals.update({t: 0.0 for t in library.totals_all if t not in totals})
    stoich_targets = library.get_stoich_targets(totals)
    thermo_targets = np.array(
        [library.equilibria[eq](temperature) for eq in library.equilibria_all]
    )  # these are ln(k)
    if stoich is None:
        stoich = library.stoich_init(totals)
    if thermo is None:
        thermo = thermo_targets.copy()
    # Solve!
    for _t in range(iter_thermo):
        for _s in range(iter_stoich_per_thermo):
            stoich_adjust = get_stoich_adjust(stoich, totals, thermo, stoich_targets)
            if verbose:
                print("STOICH", _t + 1, _s + 1)
                print(stoich_adjust)
            stoich = stoich + stoich_adjust
        thermo_adjust = get_thermo_adjust(
            thermo, totals, temperature, pressure, stoich, thermo_targets
        )
        if verbose:
            print("THERMO", _t + 1)
            print(thermo_adjust)
        thermo = thermo + thermo_adjust
    if np.any(np.abs(stoich_adjust) > warn_cutoff):
        warnings.warn(
            "Solver did not converge below `warn_cutoff` - "
            + "try increasing `iter_stoich_per_thermo`."
        )
    if np.any(np.abs(thermo_adjust) > warn_cutoff):
        warnings.warn(
            "Solver did not converge below `warn_cutoff` - "
            + "try increasing `iter_thermo`."
        )
    return SolveResultRaw(stoich, thermo, stoich_adjust, thermo_adjust)


totals = {"Na": 1.5, "Cl": 1.5, "CO2": 0.002}  # scaffolding
_solve(totals, 298.15, 10.1)  # scaffolding: works without jit
solve_jit = jax.jit(_solve)  # scaffolding: "you can JIT it yourself"
try:  # scaffolding
    solve_jit(totals, 298.15, 10.1)  # scaffolding
    _report({"jit(_solve)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
