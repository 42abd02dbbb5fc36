# source: https://github.com/google/flax/issues/112
# expect: stale-closure at line 57
# runtime: COMPILES 1 CALLS 10
# why: rnd takes no arguments and draws its keys with nn.make_rng() from the stochastic context opened outside the jit, so the keys are read once at trace time and baked into the compiled function; every later call returns the same 'random' numbers.

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


# Doesn't work:
@jax.jit
def rnd():
  return (jax.random.randint(nn.make_rng(), (5,), 0, 10),
          jax.random.randint(nn.make_rng(), (5,), 0, 10))

outs = []  # scaffolding
calls = 0  # scaffolding
with nn.stochastic(jax.random.PRNGKey(0)):
  for _ in range(5):
    print(rnd())
    outs.append(np.asarray(rnd()[0]))  # scaffolding
    calls += 2  # scaffolding
print("all calls returned the same numbers:", all((o == outs[0]).all() for o in outs))  # scaffolding
_report({"jit(rnd)"}, calls)  # scaffolding
