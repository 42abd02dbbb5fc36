# source: https://github.com/uwplasma/vmex/pull/231
# expect: changing-static at line 49
# runtime: COMPILES 3 CALLS 3
# why: ftol, nstep and time_step0 are static meta fields of the SolverRuntime pytree although ftol is only compared and nstep/time_step0 are host loop settings, so a cross-ftol run and a print-cadence change each recompile the lane: 3 compiles for 3 runs.
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

from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax import Array


@dataclass(frozen=True, eq=False)
class SolverRuntime:
    """Per-solve context, registered as a JAX pytree (cut down)."""

    rcon0: Array; zcon0: Array
    gamma: float; tcon0: float; ftol: float
    max_iterations: int; time_step0: float; nstep: int
    jmax: int                           # evolved radial rows (fixed: ns-1)


def _register(cls, meta):  # scaffolding: vmex's helper around jax.tree_util.register_dataclass
    fields = [f for f in cls.__dataclass_fields__ if f not in meta]
    jax.tree_util.register_dataclass(cls, data_fields=fields, meta_fields=list(meta))


_register(SolverRuntime, meta=(
    "gamma", "tcon0", "ftol", "max_iterations", "time_step0",
    "nstep", "jmax",
))


@jax.jit
def _while_lane(rt: SolverRuntime, state: Array) -> Array:  # scaffolding: a toy relaxation to force balance
    def cond(c):
        it, x = c
        fsq = jnp.sum((x - rt.rcon0) ** 2)
        return (fsq > rt.ftol) & (it < rt.max_iterations)

    def body(c):
        it, x = c
        return it + 1, x + rt.time_step0 * (rt.rcon0 - x)

    return jax.lax.while_loop(cond, body, (0, state))[1]


rcon0 = jnp.linspace(0.0, 1.0, 16)  # scaffolding
runs = [dict(ftol=1e-9, nstep=100), dict(ftol=1e-11, nstep=100), dict(ftol=1e-11, nstep=200)]  # scaffolding: a cross-ftol comparison and a print-cadence change
for run in runs:
    rt = SolverRuntime(rcon0=rcon0, zcon0=rcon0, gamma=0.0, tcon0=1.0, ftol=run["ftol"],
                       max_iterations=500, time_step0=0.5, nstep=run["nstep"], jmax=15)
    _while_lane(rt, jnp.zeros(16))
_report({"jit(_while_lane)"}, 3)  # scaffolding
