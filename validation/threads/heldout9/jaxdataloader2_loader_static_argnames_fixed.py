# source: https://github.com/BirkhoffG/jax-dataloader/issues/2
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the maintainer's fix marks train_loader in static_argnames, so the loader is a hashable compile-time constant and foo traces (the batch is a trace-time numpy constant); foo compiles once for repeated calls with the same loader.

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
import numpy as np
from functools import partial


class DataLoaderJax:  # scaffolding: stand-in for jax_dataloader.core.DataLoaderJax
    def __init__(self, X, Y, batch_size):
        self.X, self.Y, self.batch_size = X, Y, batch_size

    def __iter__(self):
        for i in range(0, len(self.X), self.batch_size):
            yield self.X[i:i + self.batch_size], self.Y[i:i + self.batch_size]


X = np.random.rand(20, 28, 28).astype(np.float32)  # scaffolding: MNIST images
Y = np.random.randint(0, 10, 20)  # scaffolding: MNIST labels
train_loader = DataLoaderJax(X, Y, batch_size=5)  # scaffolding: jdl.DataLoaderJax(ds, batch_size=5, ...)

@partial(jax.jit, static_argnames=["train_loader"])
def foo(train_loader):
    train_iter = iter(train_loader)
    Xtr, Ytr = next(train_iter)
    print(Xtr.shape, Ytr.shape, Xtr[0].shape, Ytr[0].shape) # 5, 28, 28) (5,) (28, 28)
    return Xtr.sum()  # scaffolding: return something so the jit has work to compile

foo(train_loader)
foo(train_loader)  # scaffolding
_report({"jit(foo)"}, 2)  # scaffolding
