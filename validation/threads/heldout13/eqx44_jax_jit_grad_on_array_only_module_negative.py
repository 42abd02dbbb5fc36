# source: https://github.com/patrick-kidger/equinox/issues/44
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The Linear module holds only JAX arrays, so passing it through plain jax.jit(jax.grad(...)) traces every leaf without any Python bool/float field; repeated calls with the same shapes reuse one compile.

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
import equinox 
import jax
jax.config.update("jax_enable_x64", True)  # scaffolding: the issue writes jax.config.update("enable_x64")

class Linear(equinox.Module):
    weight: jax.numpy.ndarray
    bias: jax.numpy.ndarray

    def __init__(self, in_size, out_size, key):
        wkey, bkey = jax.random.split(key)
        self.weight = jax.random.normal(wkey, (out_size, in_size))
        self.bias = jax.random.normal(bkey, (out_size,))

    def __call__(self, x):
        return self.weight @ x + self.bias

@jax.jit
@jax.grad
def loss_fn(model, x, y):
    pred_y = jax.vmap(model)(x)
    return jax.numpy.mean((y - pred_y) ** 2)

batch_size, in_size, out_size = 32, 2, 3
model = Linear(in_size, out_size, key=jax.random.PRNGKey(0))
x = jax.numpy.zeros((batch_size, in_size))
y = jax.numpy.zeros((batch_size, out_size))

for _ in range(3):  # scaffolding: stands in for %%timeit
    grads = loss_fn(model, x, y)
_report({"jit(loss_fn)"}, 3)  # scaffolding
