# source: https://github.com/mfschubert/sparsejac/issues/7
# expect: trace-time-error at line 45
# runtime: ERROR ConcretizationTypeError
# why: linen runs setup inside the jitted model.apply, so BCOO.fromdense(jnp.eye(dim)) is traced and has to count its stored elements from a tracer; without a static nse it raises ConcretizationTypeError.

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
import flax.linen as nn
import jax
from jax import numpy as jnp
from jax.experimental.sparse import BCOO


class sparsejac:  # scaffolding: stand-in for the sparsejac package (not installed)
    @staticmethod
    def jacrev(fn, sparsity):
        return lambda x: BCOO.fromdense(jax.jacrev(fn)(x) * sparsity.todense(), nse=sparsity.nse)


class Network(nn.Module):
    dim: int
    def setup(self):
        self.dense = nn.Dense(features = self.dim)
        self.sparsity = BCOO.fromdense(jnp.eye(self.dim))
        fn = lambda x: self.dense(x)
        self.sparse_fn = sparsejac.jacrev(fn, self.sparsity)
    def __call__(self, x):
        return self.sparse_fn(x).todense()

dim = 2
model = Network(dim)
params = model.init(x = jnp.ones((dim,)), rngs = {'params': jax.random.PRNGKey(0)})
jit_model = jax.jit(model.apply)
try:  # scaffolding
    jit_model(params, x = jnp.ones((dim,)))
    print("no error")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
