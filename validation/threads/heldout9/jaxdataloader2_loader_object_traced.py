# source: https://github.com/BirkhoffG/jax-dataloader/issues/2
# expect: trace-time-error at line 46
# runtime: ERROR TypeError
# why: the data loader object is passed as an ordinary argument to the jitted foo; it is not an array or pytree, so jit cannot abstract it and raises TypeError (not a valid JAX type).

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


class DataLoaderJax:  # scaffolding: stand-in for jax_dataloader.core.DataLoaderJax
    def __init__(self, X, Y, batch_size):
        self.X, self.Y, self.batch_size = X, Y, batch_size

    def __iter__(self):
        for i in range(0, len(self.X), self.batch_size):
            yield self.X[i:i + self.batch_size], self.Y[i:i + self.batch_size]


X = np.random.rand(20, 28, 28).astype(np.float32)  # scaffolding: MNIST images
Y = np.random.randint(0, 10, 20)  # scaffolding: MNIST labels
train_loader = DataLoaderJax(X, Y, batch_size=5)  # scaffolding: jdl.DataLoaderJax(ds, batch_size=5, ...)

@jax.jit
def foo(train_loader):
    train_iter = iter(train_loader)
    Xtr, Ytr = next(train_iter)
    print(Xtr.shape, Ytr.shape, Xtr[0].shape, Ytr[0].shape) # 5, 28, 28) (5,) (28, 28) ()

try:  # scaffolding
    foo(train_loader) # fails
    print("COMPILES 1 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
