# source: https://github.com/patrick-kidger/equinox/issues/745
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with eqx.filter_custom_jvp the Module is an ordinary argument (its arrays traced, its tangent None), so the jitted gradient of the scanned loss compiles once and runs three times.

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
from jax import jit, grad, lax
import jax.numpy as jnp
import equinox as eqx

class Fun(eqx.Module):
    param: jnp.array
    def __call__(self, x):
        return self.param * jnp.sin(x) 

fun = Fun(jnp.array(1.0))

fun(1.0)

@eqx.filter_custom_jvp
def f(fun, x, y):
    return fun(x)*y

@f.def_jvp
def f_jvp(primals, tangents):
    fun, x, y = primals
    _, x_dot, y_dot = tangents
    x_dot = 0.0 if x_dot is None else x_dot
    y_dot = 0.0 if y_dot is None else y_dot
    primal_out = f(fun, x, y)
    tangent_out = jax.grad(lambda x: fun(x))(x) * y * x_dot + fun(x) * y_dot
    return primal_out, tangent_out


@jit  # scaffolding
def loss(fun, y):  # scaffolding
    def body(carry, x):  # scaffolding
        return carry + f(fun, x, y), None  # scaffolding
    out, _ = lax.scan(body, 0.0, jnp.arange(3.0))  # scaffolding
    return out  # scaffolding


grad_loss = jax.jit(grad(loss, argnums=1))  # scaffolding: jitted so the compile is counted
calls = 0  # scaffolding
for _ in range(3):  # scaffolding
    print(grad_loss(fun, 2.0))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(loss)"}, calls)  # scaffolding
