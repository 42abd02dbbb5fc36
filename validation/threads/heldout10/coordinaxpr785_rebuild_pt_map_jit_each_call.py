# source: https://github.com/GalacticDynamics/coordinax/pull/785
# expect: jit-in-loop-or-body at line 46
# runtime: COMPILES 3 CALLS 3
# why: rebuild_each_call wraps a freshly built pt_map closure in a fresh jax.jit on every call; jit caches on the identity of the wrapped function, so each call retraces and recompiles the same Cartesian-to-spherical conversion.

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


def pt_map(from_chart, to_chart, /, *, usys=None):  # scaffolding: stand-in for cx.pt_map
    def point_map(x):
        r = jnp.linalg.norm(x, axis=-1)
        theta = jnp.acos(x[..., 2] / r)
        phi = jnp.arctan2(x[..., 1], x[..., 0])
        return jnp.stack((r, theta, phi), axis=-1)
    return point_map


usys = "si"  # scaffolding: u.unitsystems.si


def rebuild_each_call(x):
    fn = jax.jit(pt_map("cart3d", "sph3d", usys=usys))
    return jax.block_until_ready(fn(x))


xarr = jnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])

for _ in range(3):  # scaffolding: stands in for %timeit
    rebuild_each_call(xarr)
_report({"jit(point_map)"}, 3)  # scaffolding
