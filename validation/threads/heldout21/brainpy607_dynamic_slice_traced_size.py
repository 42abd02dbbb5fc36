# source: https://github.com/brainpy/BrainPy/issues/607
# expect: trace-time-error at line 38
# runtime: ERROR TypeError
# why: the slice size idx comes from the traced gt, and lax.dynamic_slice needs a static slice size, so it raises TypeError (shapes must be concrete); the maintainer: XLA only compiles static shapes, use masking.
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
# brainpy/BrainPy#607 (hongruj's second attempt, 2024-01-30): the slice loop rewritten with jax.lax.dynamic_slice
import jax
import jax.numpy as jnp  # scaffolding

batch_size = 4  # scaffolding
T = 6  # scaffolding


def loss(out, gt):  # scaffolding: the loop is from Trainer.loss
    l = 0  # scaffolding
    # slice each sample
    for i in range(batch_size):
        idx = jax.lax.dynamic_index_in_dim(gt, i)
        l1 = jax.lax.dynamic_slice(out, (0,i), (idx,1))   #got error
        l = l + (l1 ** 2).sum()  # scaffolding
    return l  # scaffolding


out = jnp.ones((T, batch_size))  # scaffolding
gt = jnp.array([1, 2, 3, 0])  # scaffolding
try:  # scaffolding
    jax.jit(loss)(out, gt)  # scaffolding: bm.cls_jit train step
    _report({"jit(loss)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
