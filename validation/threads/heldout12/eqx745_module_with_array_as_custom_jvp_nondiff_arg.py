# source: https://github.com/patrick-kidger/equinox/issues/745
# expect: trace-time-error at line 55
# runtime: ERROR TypeError
# why: an eqx.Module holding a JAX array is passed through custom_jvp's nondiff_argnums; under jit it arrives as a tracer that the jvp rule captures as a static argument, so differentiating the scanned, jitted loss fails while lowering (TypeError: no constant handler for a tracer).

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
import functools as ft
import jax
from jax import jit, grad, lax, custom_jvp
import jax.numpy as jnp
import equinox as eqx

print(eqx.__version__) # 0.11.4

print(jax.__version__) # 0.4.28

platform = 'cpu'
# platform = 'gpu'
jax.config.update('jax_platform_name', platform)
print(jax.devices())

class Fun(eqx.Module):
    param: jnp.array
    def __call__(self, x):
        return self.param * jnp.sin(x) 

# fun = jnp.sin # this is okay

fun = Fun(jnp.array(1.0))

fun(1.0)

@ft.partial(custom_jvp, nondiff_argnums=(0,))
def f(fun, x, y):
    return fun(x)*y

@f.defjvp
def f_jvp(fun, primals, tangents):
    x, y = primals
    x_dot, y_dot = tangents
    primal_out = f(fun, x, y)  # scaffolding: the rest of the rule and the scanned, jitted loss are cut off in the stored issue
    tangent_out = jax.grad(lambda x: fun(x))(x) * y * x_dot + fun(x) * y_dot  # scaffolding
    return primal_out, tangent_out  # scaffolding


@jit  # scaffolding
def loss(fun, y):  # scaffolding
    def body(carry, x):  # scaffolding
        return carry + f(fun, x, y), None  # scaffolding
    out, _ = lax.scan(body, 0.0, jnp.arange(3.0))  # scaffolding
    return out  # scaffolding


try:  # scaffolding
    print(grad(loss, argnums=1)(fun, 2.0))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
