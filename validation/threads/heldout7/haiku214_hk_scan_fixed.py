# source: https://github.com/google-deepmind/dm-haiku/issues/214
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: With hk.scan in place of jax.lax.scan (the reporter's fix) Haiku threads its state through the scan and the jitted apply compiles once.

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
import haiku as hk
import jax
import jax.numpy as jnp


# scaffolding: the stored thread keeps only the reporter's follow-up ("changing jax.lax.scan to
# hk.scan resolves the issue"); the transformed function below is a small recurrent cell that
# calls a Haiku module inside the scanned step, as the title describes
def forward(xs):
    cell = hk.Linear(4)

    def step(carry, x):
        h = jnp.tanh(cell(x) + carry)
        return h, h

    return hk.scan(step, jnp.zeros(4), xs)  # the fix from the thread


model = hk.transform(forward)
xs = jnp.ones((5, 3))
try:
    params = model.init(jax.random.PRNGKey(0), xs)
    last, hs = jax.jit(model.apply)(params, None, xs)
    _report({"jit(apply_fn)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
