# source: https://github.com/aesara-devs/aesara/issues/859
# expect: trace-time-error at line 36
# runtime: ERROR TypeError
# why: the JAX BroadcastTo translation passes its shape entries straight to jnp.broadcast_to; when they are graph inputs rather than TensorConstants they are traced in the jitted graph and broadcast_to raises TypeError, the failing tests reported in the thread.
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


# aesara/link/jax/dispatch.py: the BroadcastTo translation written for this issue (PR #883, d38552d9a)
def jax_funcify_BroadcastTo(op, **kwargs):
    def broadcast_to(x, *shape):
        return jnp.broadcast_to(x, shape)

    return broadcast_to


# scaffolding: the failing test_BroadcastTo case, broadcast_to(x, (s0, s1)) with the shape entries
# graph inputs (iscalar) rather than TensorConstants, as the JAX linker runs it: one jitted function
broadcast_to = jax_funcify_BroadcastTo(None)  # scaffolding


def fgraph_fn(x, s0, s1):  # scaffolding
    return broadcast_to(x, s0, s1)  # scaffolding


try:  # scaffolding
    print(jax.jit(fgraph_fn)(np.random.random(size=(2,)).astype(np.float32), np.int64(3), np.int64(2)))  # scaffolding
    _report({"jit(fgraph_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
