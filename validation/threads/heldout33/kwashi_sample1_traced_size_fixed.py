# source: https://github.com/k-washi/jax-examples/blob/7b8ac432cc25029938fe23fffe6187cc2ad83cee/tutorial/sample1.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 8
# why: The notebook's fix: mark `size` static with jit(variable_jax_dot, static_argnums=(0,)) (inline) and @partial(jit, static_argnums=(0,)); one compile each over repeated calls with the same size.

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
from functools import partial  # scaffolding: the notebook's `from jax import partial` no longer exists

# ---- tutorial/sample1.ipynb cell 11
# ↑の引数を渡したい時は、どうするか
# 1. static_argnums : 引数の何番目が固定値であるか
def variable_jax_dot(size):
    x = jnp.arange(size**2, dtype=jnp.float32).reshape(size, size)
    x_gram = jnp.dot(x, x.T)
    return x_gram

jit(variable_jax_dot, static_argnums=(0,))(5).block_until_ready()

# ---- cell 13
@partial(jit, static_argnums=(0,))
def variable_jax_dot_deco(size):
    x = jnp.arange(size**2, dtype=jnp.float32).reshape(size, size)
    x_gram = jnp.dot(x, x.T)
    return x_gram

variable_jax_dot_deco(5).block_until_ready()
for _ in range(3):  # scaffolding: repeat both calls, as a notebook re-run would
    jit(variable_jax_dot, static_argnums=(0,))(5).block_until_ready()
    variable_jax_dot_deco(5).block_until_ready()
_report({"jit(variable_jax_dot)", "jit(variable_jax_dot_deco)"}, 8)  # scaffolding
