# source: https://github.com/mdmould/gwax/commit/1a040acf0eaa45240ad9f0a7356de39c70fb79d5
# expect: trace-time-error at line 39
# runtime: ERROR ConcretizationTypeError
# why: jnp.ravel_multi_index defaults to mode='raise', which needs concrete indices; inside jax.jit the digitized sample indices are tracers, so tracing get_bins raises.

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


def get_bins(samples, edges):
    multi_index = [
        jnp.clip(jnp.digitize(x, e) - 1, 0, len(e) - 2)
        for x, e in zip(samples, edges)
    ]
    dims = [len(e) - 1 for e in edges]
    return jnp.ravel_multi_index(multi_index, dims)


# scaffolding: a 2-D histogram binning inside a jitted likelihood, as gwax uses it
edges = [jnp.linspace(0.0, 1.0, 11), jnp.linspace(0.0, 1.0, 6)]
get_bins_jit = jax.jit(get_bins)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for seed in range(3):  # scaffolding
        samples = jax.random.uniform(jax.random.key(seed), (2, 100))  # scaffolding
        bins = get_bins_jit(samples, edges)
        calls += 1  # scaffolding
    _report({"jit(get_bins)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
