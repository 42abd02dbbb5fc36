# source: https://github.com/patrick-kidger/equinox/issues/376
# expect: trace-time-error at line 47
# runtime: ERROR TypeError
# why: The whole eqx.nn.MLP, whose activation leaves are custom_jvp functions, is passed as init_params to jaxopt's LBFGS.run, which pushes every leaf through its implicit-differentiation custom_vjp, so run raises TypeError (not a valid JAX type).

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
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr
import jaxopt


model = eqx.nn.MLP(1, 2, 2, 1, key=jr.PRNGKey(0))

def loss_fn(model, x, y):
    preds = jax.vmap(model)(x)
    return jnp.mean((preds - y) ** 2)

x = jnp.expand_dims(jnp.linspace(0, 2 * jnp.pi, 250), 1)
y = jnp.sin(x)

solver = jaxopt.LBFGS(fun=loss_fn, maxiter=500)
try:  # scaffolding
    res = solver.run(model, x=x, y=y)
    _report(set(), 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
