# source: https://github.com/unifyai/ivy/pull/16255
# expect: trace-time-error at line 42
# runtime: ERROR TracerArrayConversionError
# why: TestFlaxLinear.__call__ converts its input with NumPy's np.asarray; when the Flax module is applied under a trace (ivy's graph compiler in the PR, jax.jit here) x is a tracer and np.asarray raises TracerArrayConversionError. The author notes that jnp.asarray works.

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
import numpy as np
import flax


class TestFlaxLinear(flax.linen.Module):
    out_size: int

    def setup(self):
        self._linear = flax.linen.Dense(self.out_size)

    def __call__(self, x):
        x = np.asarray(x)
        return self._linear(x)
    
class TestFlaxModule(flax.linen.Module):
    in_size: int
    out_size: int
    device: jax.Device = None  # scaffolding: jaxlib.xla_extension.Device in the PR
    hidden_size: int = 4

    def setup(self):
        self._linear0 = TestFlaxLinear(self.hidden_size)
        self._linear1 = TestFlaxLinear(self.hidden_size)
        self._linear2 = TestFlaxLinear(self.out_size)

    def __call__(self, x):
        x = jnp.expand_dims(x, 0)
        x = jnp.tanh(self._linear0(x))
        x = jnp.tanh(self._linear1(x))
        return jnp.tanh(self._linear2(x))[0]

if __name__ == "__main__":
    test_input = jnp.array([[0.1, 0.2]], dtype="float32")  # scaffolding: ivy.native_array in the PR
    model = TestFlaxModule(in_size=2, out_size=1)  # scaffolding
    try:  # scaffolding
        params = model.init(jax.random.PRNGKey(0), test_input)  # scaffolding
        out = jax.jit(model.apply)(params, test_input)  # scaffolding: ivy's graph compiler in the PR
        _report({"jit(apply)"}, 1)  # scaffolding
    except Exception as e:  # scaffolding
        print(f"ERROR {type(e).__name__}")  # scaffolding
