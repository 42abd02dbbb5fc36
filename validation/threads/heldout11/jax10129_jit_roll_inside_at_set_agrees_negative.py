# source: https://github.com/jax-ml/jax/issues/10129
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: each of the three functions is jitted once with a fixed input and, on jax 0.10.2, returns the same values as the eager call (the 2022 CPU miscompile of f1 is fixed), so these jit-vs-eager comparisons behave.

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
from jax import jit, random

key = random.PRNGKey(42)
key, subkey = random.split(key)

X = random.uniform(subkey, (2, 100))

def f1(X):
    X = X.at[0].set(jnp.roll(X[0], 5, axis=-1))
    return X

def f2(X):
    X = X.at[0].set(X[0]**2)
    return X

def f3(X):
    x = jnp.roll(X[0], 5, axis=-1) 
    return jnp.stack([x, X[1]])

print(jnp.all(f1(X) == jit(f1)(X))) # evaluates to False
print(jnp.all(f2(X) == jit(f2)(X))) # evaluates to True
print(jnp.all(f3(X) == jit(f3)(X))) # evaluates to True
_report({"jit(f1)", "jit(f2)", "jit(f3)"}, 3)  # scaffolding
