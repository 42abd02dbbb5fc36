# source: https://github.com/mfschubert/sparsejac/issues/7
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: passing nse=self.dim (a Python int known from the module field) gives BCOO.fromdense a static size, so setup traces cleanly inside the jitted apply, which compiles once for three calls.

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
        self.sparsity = BCOO.fromdense(jnp.eye(self.dim), nse=self.dim)
        fn = lambda x: self.dense(x)
        self.sparse_fn = sparsejac.jacrev(fn, self.sparsity)
    def __call__(self, x):
        return self.sparse_fn(x).todense()

dim = 2
model = Network(dim)
params = model.init(x = jnp.ones((dim,)), rngs = {'params': jax.random.PRNGKey(0)})
jit_model = jax.jit(model.apply)
calls = 0  # scaffolding
for _ in range(3):  # scaffolding
    jit_model(params, x = jnp.ones((dim,)))
    calls += 1  # scaffolding
_report({"jit(apply)"}, calls)  # scaffolding
