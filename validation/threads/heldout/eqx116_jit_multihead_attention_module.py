# source: https://github.com/patrick-kidger/equinox/issues/116
# expect: unhashable-static at line 40
# runtime: ERROR TypeError
# why: jax.jit(fn) with an eqx.nn.MultiheadAttention module as the function makes the module itself part of the cache key; its hash covers its weight arrays, so the first call raises TypeError (unhashable type: ArrayImpl). eqx.filter_jit(fn), or passing the module as an argument, avoids hashing the arrays.

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
from jax import jit
from equinox import nn

key=jax.random.PRNGKey(1)
x=jax.random.uniform(key,shape=(128,128))
fn = nn.MultiheadAttention(num_heads=4,query_size=128, key=key)
print(fn(x,x,x))#no error

try:  # scaffolding
    jitfn=jit(fn)
    jitfn(x,x,x)#error
    jitfn(x,x,x)  # scaffolding
    _report({"jit(MultiheadAttention)", "jit(__call__)"}, 2)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
