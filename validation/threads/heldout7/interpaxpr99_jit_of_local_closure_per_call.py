# source: https://github.com/f0uriest/interpax/pull/99
# expect: jit-in-loop-or-body at line 44
# runtime: COMPILES 3 CALLS 3
# why: approx_df defines a local closure over its static arguments and calls jit(fun)(x, f) on every call, so every derivative approximation retraces and recompiles, even for same-shaped data.

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
import jax
import jax.numpy as jnp
from jax import jit


def approx_df(
    x: jax.Array, f: jax.Array, method: str = "cubic", axis: int = -1, **kwargs
):
    """Approximates first derivatives using cubic spline interpolation (docstring shortened)."""
    # noqa: D202

    # close over static args to deal with non-jittable kwargs
    def fun(x, f):
        return _approx_df(x, f, method, axis, **kwargs)

    return jit(fun)(x, f)


def _approx_df(x, f, method, axis, c=0, bc_type="not-a-knot"):
    if method == "cubic":
        out = _cubic1(x, f, axis)
    elif method in ("nearest", "linear"):
        out = jnp.zeros_like(f)
    else:  # the other methods (cubic2, cardinal, monotonic, akima) are left out here
        raise ValueError(f"got unknown method {method}")
    return out


def _cubic1(x, f, axis):
    dx = jnp.diff(x)
    df = jnp.diff(f, axis=axis)
    dxi = jnp.where(dx == 0, 0, 1 / dx)
    if df.ndim > dxi.ndim:
        dxi = jnp.expand_dims(dxi, tuple(range(1, df.ndim)))
        dxi = jnp.moveaxis(dxi, 0, axis)
    df = dxi * df
    fx = jnp.concatenate(
        [
            jnp.take(df, jnp.array([0]), axis, mode="wrap"),
            1
            / 2
            * (
                jnp.take(df, jnp.arange(0, df.shape[axis] - 1), axis, mode="wrap")
                + jnp.take(df, jnp.arange(1, df.shape[axis]), axis, mode="wrap")
            ),
            jnp.take(df, jnp.array([-1]), axis, mode="wrap"),
        ],
        axis=axis,
    )
    return fx


# scaffolding: repeated derivative approximations on same-shaped data, as an interpolator
# called in a solver loop would do
x = jnp.linspace(0, 1, 16)
calls = 0
for k in range(3):
    fx = approx_df(x, jnp.sin(x * (k + 1)), method="cubic", axis=-1)
    calls += 1
_report({"jit(fun)"}, calls)
