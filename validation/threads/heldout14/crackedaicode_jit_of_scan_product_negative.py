# source: https://crackedaicode.com/problems/jax-jit-of-scan
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the running product is a lax.scan inside one module-level jitted function; the scan body is traced once inside it and repeated calls with the same input shape reuse the compiled program.

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
from jax import lax


@jax.jit
def scan_product(x):
    """Running product via scan, compiled with jit."""
    def step(carry, xi):
        return carry * xi, carry * xi
    _, ys = lax.scan(step, 1.0, x)
    return ys


scan_product(jnp.array([1.0, 2.0, 3.0, 4.0]))
# → [1., 2., 6., 24.]  (compiled on first call)
scan_product(jnp.array([2.0, 2.0, 2.0, 2.0]))  # scaffolding: same shape again
scan_product(jnp.array([1.0, 0.5, 4.0, 1.0]))  # scaffolding
_report({"jit(scan_product)"}, 3)  # scaffolding
