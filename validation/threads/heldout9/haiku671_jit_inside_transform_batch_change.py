# source: https://github.com/google-deepmind/dm-haiku/issues/671
# expect: stale-closure at line 53
# runtime: ERROR ValueError
# why: _forward_fn is wrapped in @jax.jit before hk.transform, so the haiku module and its parameters are created inside an inner jit trace; when the batch size changes the inner jit re-traces and haiku's parameter state holds a tracer from that trace, which raised UnexpectedTracerError in 2023; haiku 0.0.17 now rejects the jit-decorated function at hk.transform with a ValueError.

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
import haiku as hk
from timeit import timeit
import time


class VGG_D(hk.Module):  # scaffolding: stand-in for the reporter's vgg.VGG_D
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes

    def __call__(self, x):
        x = hk.Conv2D(4, 3, data_format="NCHW")(x)
        return hk.Linear(self.num_classes)(hk.Flatten()(x))


class vgg:  # scaffolding
    VGG_D = VGG_D


keys_seq = hk.PRNGSequence(0)
rng_key = jax.random.PRNGKey(1)  # scaffolding


@jax.jit
def _forward_fn(x):
   # This model is already defined and has a correct format.
    model = vgg.VGG_D(num_classes=10)
    return model(x)


def test(batch):  # scaffolding: batch size passed in
    for i in range(1):  # scaffolding: 1000 -> 1
        inp_x = jax.random.normal(key=rng_key, shape=(batch, 3, 8, 8))
        out = model.apply(params, x=inp_x)
    return None

try:  # scaffolding
    model = hk.without_apply_rng(hk.transform(_forward_fn))

    dummy_x = jax.random.normal(key=next(keys_seq), shape=(1, 3, 8, 8))

    params = model.init(rng=next(keys_seq), x=dummy_x)

    test(1)  # the reporter: batch size 1 works
    test(2)  # the reporter: batch size 2 fails
    print("COMPILES 0 CALLS 2")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
