# source: https://github.com/google/flax/issues/4989
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: Reported on flax 0.12.0 (nnx.jit raised a ValueError when in_shardings covered only the non-static arguments); on flax 0.12.8 the call works as under jax.jit, and my_func compiles once per value of the static use_relu (2 compiles for the two values).

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax.experimental import mesh_utils  # scaffolding
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # scaffolding
from flax import nnx  # scaffolding

devices = mesh_utils.create_device_mesh((jax.device_count(),))
mesh = Mesh(devices, axis_names=('data',))

def my_func(x, scale: float, use_relu: bool):
    y = x * scale
    if use_relu:
        y = jnp.maximum(y, 0)
    return y.sum()


x_sharding = NamedSharding(mesh, P('data'))
scale_sharding = None

my_func_jit = nnx.jit(
    my_func,
    in_shardings=(x_sharding, scale_sharding),
    static_argnums=(2,)
)

# Example input
x = jnp.arange(16.0).reshape(4, 4)
scale = 0.5

try:  # scaffolding
    print("With ReLU:", my_func_jit(x, scale, True))
    print("Without ReLU:", my_func_jit(x, scale, False))
    _report({"jit(my_func)"}, 2)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
