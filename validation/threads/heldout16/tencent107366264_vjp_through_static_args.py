# source: https://cloud.tencent.com/developer/ask/sof/107366264
# expect: unhashable-static at line 43
# runtime: ERROR ValueError
# why: vjp traces every positional argument it is given, so the static A and B reach func_jitted as JVPTracers and jit rejects them as non-hashable static arguments (ValueError), although the same jitted function works when called directly.
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


import jax.numpy as jnp  # scaffolding
from jax import jit, vjp

def func(variational_params, e, A, B):
    model_params = variational_params * e  # scaffolding: body elided in the question
    dlogp = A * jnp.sum(model_params ** 2) + B  # scaffolding
    return dlogp, model_params  # scaffolding

func_jitted = jit(func, static_argnums=(2, 3))

variational_params = jnp.ones(3)  # scaffolding
e = jnp.arange(3.0)  # scaffolding
A, B = 2.0, 1.0  # scaffolding
func_jitted(variational_params, e, A, B)  # scaffolding: 'the function jits fine'

try:  # scaffolding
    f_eval, vjp_function, aux_output = vjp(func_jitted, variational_params, e, A, B, has_aux=True)
    _report({"jit(func)"}, 2)  # scaffolding
except Exception as e_:  # scaffolding
    print(f"ERROR {type(e_).__name__}")  # scaffolding
