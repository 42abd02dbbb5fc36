# source: https://github.com/PlasmaControl/DESC/pull/2228
# expect: trace-time-error at line 42
# runtime: ERROR TypeError
# why: diffeqsolve's filter_jit would keep the Python int bs_chunk_size (inside args) static, but the extra @jit on the vector field traces every argument, so bs_chunk_size becomes a tracer and using it as a reshape size raises.

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
import diffrax


def _field(pts):  # scaffolding: stands in for the chunked Biot-Savart evaluation
    return jnp.stack([-pts[:, 1], pts[:, 0], 0.1 * jnp.ones(pts.shape[0])], axis=1)


@jit
def _odefun(t, y, args):
    scale, bs_chunk_size = args
    pts = y.reshape(-1, bs_chunk_size, 3)
    B = jax.vmap(_field)(pts).reshape(y.shape)
    return scale * B


def field_line_integrate(y0, bs_chunk_size):
    term = diffrax.ODETerm(_odefun)
    sol = diffrax.diffeqsolve(
        term, diffrax.Tsit5(), t0=0.0, t1=1.0, dt0=0.1, y0=y0,
        args=(1.0, bs_chunk_size), max_steps=64,
    )
    return sol.ys


y0 = jnp.ones((8, 3))
try:
    field_line_integrate(y0, 4)
    _report({"jit(diffeqsolve)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
