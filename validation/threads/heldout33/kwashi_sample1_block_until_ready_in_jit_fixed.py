# source: https://github.com/k-washi/jax-examples/blob/7b8ac432cc25029938fe23fffe6187cc2ad83cee/tutorial/sample1.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The notebook's working version: the jitted function returns the array and block_until_ready() is called on the result outside; one compile.

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
import jax.numpy as jnp
from jax import jit

# ---- tutorial/sample1.ipynb cells 5-6: block_until_ready on the result, outside the jitted function
@jit
def static_jax_dot():
    x = jnp.arange(25, dtype=jnp.float32).reshape(5, 5)
    x_gram = jnp.dot(x, x.T)
    return x_gram

static_jax_dot().block_until_ready()
for _ in range(2):  # scaffolding
    static_jax_dot().block_until_ready()
_report({"jit(static_jax_dot)"}, 3)  # scaffolding
