# source: https://github.com/google/flax/issues/112
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the key is drawn outside (nn.make_rng()) and passed into the jitted rnd, which opens its own stochastic context from that argument, so every call gets fresh numbers from one compiled function.

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
import contextlib  # scaffolding

import jax
import numpy as np  # scaffolding


class nn:  # scaffolding: stand-in for the pre-Linen flax.nn stochastic-context API (removed from flax)
    _frames = []

    @staticmethod
    @contextlib.contextmanager
    def stochastic(rng):
        nn._frames.append([rng])
        try:
            yield
        finally:
            nn._frames.pop()

    @staticmethod
    def make_rng():
        frame = nn._frames[-1]
        frame[0], sub = jax.random.split(frame[0])
        return sub


# Works
@jax.jit
def rnd(rng):
  with nn.stochastic(rng):
    return (jax.random.randint(nn.make_rng(), (5,), 0, 10),
            jax.random.randint(nn.make_rng(), (5,), 0, 10))

outs = []  # scaffolding
calls = 0  # scaffolding
with nn.stochastic(jax.random.PRNGKey(0)):
  for _ in range(5):
    out = rnd(nn.make_rng())  # scaffolding: one call per iteration, kept for the check below
    print(out)
    outs.append(np.asarray(out[0]))  # scaffolding
    calls += 1  # scaffolding
print("all calls returned the same numbers:", all((o == outs[0]).all() for o in outs))  # scaffolding
_report({"jit(rnd)"}, calls)  # scaffolding
