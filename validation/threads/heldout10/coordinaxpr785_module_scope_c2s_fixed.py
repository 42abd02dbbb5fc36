# source: https://github.com/GalacticDynamics/coordinax/pull/785
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The guide's recommended pattern: the pt_map closure and its jax.jit wrapper are built once at module scope and the same object is called every time, so the conversion compiles once.

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

_c2s_cx = pt_map("cart3d", "sph3d", usys=usys)
c2s_cx = jax.jit(jax.vmap(_c2s_cx))

xarr = jnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])

for _ in range(3):  # scaffolding: stands in for %timeit
    jax.block_until_ready(c2s_cx(xarr))
_report({"jit(point_map)"}, 3)  # scaffolding
