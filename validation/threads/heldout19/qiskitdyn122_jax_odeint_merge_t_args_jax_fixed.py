# source: https://github.com/qiskit-community/qiskit-dynamics/issues/122
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The fix (PR #125) merges and trims the time arrays with jnp and lax.cond (merge_t_args_jax / trim_t_results_jax), so the jitted simulation traces and compiles once.
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
# qiskit-community/qiskit-dynamics issue #122: the fix (PR #125): merge_t_args_jax / trim_t_results_jax used by jax_odeint
from typing import List, Optional, Tuple, Union, Callable  # scaffolding

import numpy as np  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding
from jax.lax import cond  # as in the fix
from jax.experimental.ode import odeint as _odeint  # scaffolding
from scipy.integrate._ivp.ivp import OdeResult  # scaffolding

jax.config.update("jax_enable_x64", True)  # as in the issue


class _Arr:  # scaffolding: qiskit_dynamics.array.Array stand-in for the jax backend (has .data)
    def __init__(self, data):
        self.data = data

    def __getitem__(self, idx):
        return self.data[idx]

    def __rmul__(self, other):
        return other * self.data

    def __jax_array__(self):
        return self.data

    def __array_ufunc__(self, ufunc, method, *args, **kw):  # numpy calls dispatch to jax, as Array does
        return getattr(jnp, ufunc.__name__)(*[a.data if isinstance(a, _Arr) else a for a in args], **kw)

    def __array_function__(self, func, types, args, kw):
        return getattr(jnp, func.__name__)(*[a.data if isinstance(a, _Arr) else a for a in args], **kw)


def Array(x, backend=None, dtype=None):  # scaffolding: qiskit_dynamics.array.Array stand-in
    if backend == "numpy":
        return np.asarray(x, dtype=dtype)
    if isinstance(x, _Arr):
        x = x.data
    return _Arr(jnp.asarray(x, dtype=dtype))


def wrap(f):  # scaffolding: qiskit_dynamics.array.wrap stand-in (unwraps Array arguments)
    def wrapped(*args, **kw):
        args = [a.data if isinstance(a, _Arr) else a for a in args]
        kw = {k: (v.data if isinstance(v, _Arr) else v) for k, v in kw.items()}
        return f(*args, **kw)
    return wrapped


odeint = wrap(_odeint)


def merge_t_args_jax(t_span, t_eval=None):
    """JAX-compilable version of merge_t_args. Rather than raise errors, sets return values to
    jnp.nan to signal errors.
    """

    if t_eval is None:
        return Array(t_span, backend="jax")

    t_span = Array(t_span, backend="jax").data
    t_eval = Array(t_eval, backend="jax").data

    out = jnp.append(jnp.append(t_span[0], t_eval), t_span[1])

    # raise error if not one dimensional
    if t_eval.ndim > 1:
        raise ValueError("t_eval must be 1 dimensional.")

    # output nan if t_eval point lies outside t_span
    t_min = jnp.min(t_span)
    t_max = jnp.max(t_span)
    out = cond(
        (jnp.min(t_eval) < t_min) | (jnp.max(t_eval) > t_max),
        lambda s: jnp.nan * s,
        lambda s: s,
        out,
    )

    # output nan if t_eval and t_span have incompatible orderings
    diff = jnp.diff(t_eval)
    t_direction = jnp.sign(t_span[1] - t_span[0])
    out = cond(jnp.any(t_direction * diff < 0.0), lambda s: jnp.nan * s, lambda s: s, out)

    return Array(out)


def trim_t_results_jax(results, t_eval):
    """JAX-compilable version of trim_t_results. The cond call is necessary due to
    a bug in odeint that only occurs if the first two time values are duplicates.
    """

    if t_eval is None:
        return results

    results.y = Array(
        cond(
            results.t[0] == results.t[1],
            lambda y: jnp.append(jnp.array([y[0]]), y[2:-1], axis=0),
            lambda y: y[1:-1],
            Array(results.y).data,
        )
    )
    results.t = Array(results.t[1:-1])
    return results


def jax_odeint(
    rhs: Callable,
    t_span: Array,
    y0: Array,
    t_eval: Optional[Union[Tuple, List, Array]] = None,
    **kwargs,
):
    """Routine for calling `jax.experimental.ode.odeint`"""

    t_list = merge_t_args_jax(t_span, t_eval)

    # determine direction of integration
    t_direction = np.sign(Array(t_list[-1] - t_list[0], backend="jax", dtype=complex))
    rhs = wrap(rhs)

    results = odeint(
        lambda y, t: rhs(np.real(t_direction * t), y) * t_direction,
        y0=Array(y0, dtype=complex),
        t=np.real(t_direction) * Array(t_list),
        **kwargs,
    )

    results = OdeResult(t=t_list, y=Array(results, backend="jax", dtype=complex))

    return trim_t_results_jax(results, t_eval)


# scaffolding: the Solver's jitted pulse-simulation function (t_span traced, t_eval a closed-over kwarg)
Z = np.array([[1., 0.], [0., -1.]])  # as in the issue
X = np.array([[0., 1.], [1., 0.]])  # as in the issue
H = 2 * np.pi * 5. * Z + 2 * np.pi * 0.02 * X  # scaffolding
t_eval = np.linspace(0., 1., 5)  # scaffolding


def sim_function(t_span, y0):  # scaffolding
    results = jax_odeint(lambda t, y: -1j * (H @ y), t_span, y0, t_eval=t_eval)  # scaffolding
    return Array(results.t).data, Array(results.y).data  # as the Solver's sim_function returns


jit_sim_function = jit(sim_function)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for _ in range(3):  # scaffolding
        jit_sim_function(jnp.array([0., 1.]), jnp.array([1., 0.], dtype=complex))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(sim_function)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
