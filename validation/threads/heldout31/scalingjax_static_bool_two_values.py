# source: https://github.com/sumitdotml/scaling-with-jax/blob/f8c8c7f8cbc6d9599559a8df1758228ac6aced62/experiments/02_jit_and_tracing.py
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: use_bias is declared static and branched on in Python; calling with True then False compiles one program per value, which is what a static flag is for, and repeated calls with either value hit the cache.

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


@jax.jit(static_argnames="use_bias")
def operation_w_bool(x: jax.Array, use_bias: bool) -> jax.Array:
    # use_bias is static: Python can choose a branch while tracing.
    # Changing True to False creates a separate cached program.
    print(f"tracing use_bias = {use_bias} for {x}\n")
    if use_bias:
        print(x)
        return x * x + 1
    else:
        print(x)
        return x * x


if __name__ == "__main__":
    key = jax.random.key(0)
    key1, key2, key3, key4 = jax.random.split(key, 4)
    x = jax.random.uniform(key1, (3,))

    # Static args are config and not data. They become part of the jit cache key.
    operation_w_bool(x, True)
    operation_w_bool(x, False)
    operation_w_bool(x, True)  # scaffolding: repeat calls
    operation_w_bool(x, False)  # scaffolding
    _report({"jit(operation_w_bool)"}, 4)
