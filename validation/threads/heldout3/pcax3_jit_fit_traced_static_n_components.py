# source: https://github.com/alonfnt/pcax/issues/3
# expect: unhashable-static at line 51
# runtime: ERROR ValueError
# why: fit is jitted as a whole, so n_components reaches the inner _fit_full (static_argnames='n_components') as a tracer; a tracer cannot be hashed as a static argument, so the call raises ValueError (Non-hashable static arguments).

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


from functools import partial  # scaffolding
from typing import NamedTuple  # scaffolding
import jax
import jax.numpy as jnp  # scaffolding


class PCAState(NamedTuple):
    components: jax.Array
    means: jax.Array
    explained_variance: jax.Array


def transform(state, x):
    x = x - state.means
    return jnp.dot(x, jnp.transpose(state.components))


def recover(state, x):
    return jnp.dot(x, state.components) + state.means


def fit(x, n_components, solver="full", rng=None):
    if solver == "full":
        return _fit_full(x, n_components)
    elif solver == "randomized":
        if rng is None:
            rng = jax.random.PRNGKey(n_components)
        return _fit_randomized(x, n_components, rng)
    else:
        raise ValueError("solver parameter is not correct")


@partial(jax.jit, static_argnames="n_components")
def _fit_full(x, n_components):
    n_samples, n_features = x.shape

    # Subtract the mean of the input data
    means = x.mean(axis=0, keepdims=True)
    x = x - means

    # Factorize the data matrix with singular value decomposition.
    U, S, Vt = jax.scipy.linalg.svd(x, full_matrices=False)

    # Compute the explained variance
    explained_variance = (S[:n_components] ** 2) / (n_samples - 1)  # scaffolding from here on
    return PCAState(components=Vt[:n_components], means=means,
                    explained_variance=explained_variance)


x = jax.random.normal(jax.random.PRNGKey(0), (20, 5))
try:
    jax.jit(fit)(x, 2)
    _report({"jit(fit)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
