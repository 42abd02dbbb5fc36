# source: https://github.com/google-deepmind/dm-haiku/issues/671
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: the forward function is transformed first and the pure apply it returns is jitted, so a new batch size is only a new shape: apply compiles once per batch size and no tracer escapes.

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


def _forward_fn(x):
    model = vgg.VGG_D(num_classes=10)
    return model(x)


model = hk.without_apply_rng(hk.transform(_forward_fn))
apply = jax.jit(model.apply)

dummy_x = jax.random.normal(key=next(keys_seq), shape=(1, 3, 8, 8))
params = model.init(rng=next(keys_seq), x=dummy_x)

for batch in (1, 2, 2):  # scaffolding
    inp_x = jax.random.normal(key=rng_key, shape=(batch, 3, 8, 8))
    out = apply(params, x=inp_x)
_report({"jit(apply_fn)"}, 3)  # scaffolding
