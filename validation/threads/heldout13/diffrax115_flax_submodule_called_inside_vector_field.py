# source: https://github.com/patrick-kidger/diffrax/issues/115
# expect: trace-time-error at line 40
# runtime: ERROR UnexpectedTracerError
# why: The ODE vector field f closes over the bound Flax submodule self.derivative_net and calls it inside diffeqsolve's own jit/while-loop trace, so the parameters Flax creates there leak out of that inner trace and init raises UnexpectedTracerError.

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
import diffrax
import jax
import jax.numpy as jnp
from flax import linen as nn

class NeuralODE(nn.Module):
    derivative_net: nn.Module

    @nn.compact
    def __call__(self, coords):
        def f(t, y, args):
            return self.derivative_net(y)

        term = diffrax.ODETerm(f)
        solver = diffrax.Dopri5()
        solution = diffrax.diffeqsolve(term, solver, t0=0, t1=1, dt0=0.1, y0=coords)
        return solution.ys

coords = jnp.ones((1, 4))
model = NeuralODE(derivative_net=nn.Dense(4))
rng = jax.random.PRNGKey(0)
try:  # scaffolding
    params = jax.jit(model.init)(rng, coords)
    _report({"jit(init)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
