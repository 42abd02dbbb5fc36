# source: https://github.com/k-washi/jax-examples/blob/7b8ac432cc25029938fe23fffe6187cc2ad83cee/tutorial/sample1.ipynb
# expect: trace-time-error at line 39
# runtime: ERROR AttributeError
# why: Learner tutorial notebook: calling .block_until_ready() on a traced array inside a jitted function raises AttributeError at trace time (the notebook notes the error and comments the call out).

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

# ---- tutorial/sample1.ipynb cell 9
#jit関数内部にblock_until_ready
# AttributeError: 'ShapedArray' object has no attribute 'block_until_ready'
@jit
def static_jax_dot_badexample():
    x = jnp.arange(25, dtype=jnp.float32).reshape(5, 5)
    x_gram = jnp.dot(x, x.T)
    return x_gram.block_until_ready()

try:  # scaffolding
    static_jax_dot_badexample()  # the notebook keeps this call commented out
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
