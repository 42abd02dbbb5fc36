# source: https://github.com/brainpy/BrainPy/issues/607
# expect: trace-time-error at line 55
# runtime: ERROR IndexError
# why: gt is an array argument of the jitted loss, so idx = gt[i] is traced and out[idx:, i] is a slice with a traced start, which raises IndexError (slice indices must be static).
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
# brainpy/BrainPy#607 (hongruj, 2024-01-30): Trainer.loss as posted; brainpy is not installed, so bm.for_loop/net are replaced by a given output
import jax
import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding

batch_size = 4  # scaffolding
T = 6  # scaffolding


class Trainer():
    def __init__(self, out):  # scaffolding: net, opt, data and bm.grad left out
        self.out = out

    def loss(self, X, Y, gt):
        # X: input of size (T, batch_size, num_in)
        # Y: target of size (batch_size)
        # gt: an array containing index indicating that from which to slice net's output, of size (batch_size)

        # net's output of size (T, batch_size)
        out = self.out * X.sum(-1)  # scaffolding: bm.for_loop(self.net.step_run, (np.arange(X.shape[0]), X))

        l=0

        # slice each sample
        for i in range(batch_size):

            # get the index
            idx = gt[i]

            # slice the output and compare it with the target
            l3 = ((out[idx:,i]-Y[i])**2).sum()

            l = l + l3
        return l


trainer = Trainer(jnp.ones((T, batch_size)))  # scaffolding
X = jnp.ones((T, batch_size, 3))  # scaffolding
Y = jnp.zeros(batch_size)  # scaffolding
gt = jnp.array([1, 2, 3, 0])  # scaffolding
try:  # scaffolding
    jax.jit(trainer.loss)(X, Y, gt)  # scaffolding: bm.cls_jit train step; gt is an array argument, so it is traced
    _report({"jit(loss)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
