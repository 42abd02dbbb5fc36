# source: https://github.com/qiskit-community/qiskit-dynamics/pull/125
# expect: trace-time-error at line 69
# runtime: ERROR TracerArrayConversionError
# why: merge_t_args validates and merges t_span/t_eval with NumPy (Array(t_span, backend="numpy")), so when Solver.solve jit-compiles the simulation with t_span as a traced argument and a t_eval, the conversion raises TracerArrayConversionError.
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


from typing import List, Optional, Tuple, Union

import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding
from jax.experimental.ode import odeint  # scaffolding


def Array(x, backend=None, dtype=None):  # scaffolding: qiskit_dynamics.array.Array; backend="numpy" holds np.asarray(x)
    return np.asarray(x, dtype=dtype) if backend == "numpy" else jnp.asarray(x, dtype=dtype)  # scaffolding


def merge_t_args(
    t_span: Union[List, Tuple, Array], t_eval: Optional[Union[List, Tuple, Array]] = None
) -> Union[List, Tuple, Array]:
    """Merge ``t_span`` and ``t_eval`` into a single array without
    duplicates. Validity of the passed ``t_span`` and ``t_eval``
    follow scipy ``solve_ivp`` validation logic:
    ``t_eval`` must be contained in ``t_span``, and be strictly
    increasing if ``t_span[1] > t_span[0]`` or strictly
    decreasing if ``t_span[1] < t_span[0]``.

    Note: this is done explicitly with ``numpy``, and hence this is
    not differentiable or compilable using jax.

    If ``t_eval is None`` returns ``t_span`` with no modification.

    Args:
        t_span: Interval to solve over.
        t_eval: Time points to include in returned results.

    Returns:
        Union[List, Tuple, Array]: Combined list of times.

    Raises:
        ValueError: If one of several validation checks fail.
    """

    if t_eval is None:
        return t_span

    t_span = Array(t_span, backend="numpy")

    t_min = np.min(t_span)
    t_max = np.max(t_span)
    t_direction = np.sign(t_span[1] - t_span[0])

    t_eval = Array(t_eval, backend="numpy")

    if t_eval.ndim > 1:
        raise ValueError("t_eval must be 1 dimensional.")

    if np.min(t_eval) < t_min or np.max(t_eval) > t_max:
        raise ValueError("t_eval entries must lie in t_span.")

    diff = np.diff(t_eval)

    if np.any(t_direction * diff <= 0.0):
        raise ValueError("t_eval must be ordered according to the direction of integration.")

    # if endpoints are not included in t_span, add them
    if t_eval[0] != t_span[0]:
        t_eval = np.append(t_span[0], t_eval)

    if t_span[1] != t_eval[-1]:
        t_eval = np.append(t_eval, t_span[1])

    return Array(t_eval, backend="numpy")


def sim_function(t_span, y0):  # scaffolding: Solver.solve's automatically jitted simulation with t_eval
    t_eval = jnp.linspace(0.0, 1.0, 5)  # scaffolding
    t_list = merge_t_args(t_span, t_eval)  # scaffolding: first line of jax_odeint
    return odeint(lambda y, t: -1j * 2.0 * jnp.pi * y, y0, jnp.asarray(t_list))  # scaffolding


jit_sim_function = jit(sim_function)  # scaffolding
try:  # scaffolding
    for k in range(3):  # scaffolding
        jit_sim_function(jnp.array([0.0, 1.0]), jnp.array([1.0 + 0j, 0.0 + 0j]) * (k + 1))  # scaffolding
    _report({"jit(sim_function)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
