# source: https://github.com/google-deepmind/dm-haiku/issues/63
# expect: none
# runtime: COMPILES 0 CALLS 10
# why: fwd.apply is called eagerly (nothing is jitted), so Haiku re-runs the module's Python __init__ and __call__ on every apply as designed; there is no jitted function to recompile and each primitive's eager executable is cached after the first step.

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


class MyModule(hk.Module):
    def __init__(self):
        super().__init__(name="MyModule")
        print("MyModule.__init__ ran")

    def __call__(self, x):
        print("MyModule.__call__ ran")
        return x + 1


def forward(x):
    return MyModule()(x)


rng = hk.PRNGSequence(420)
fwd = hk.transform(forward)
params = fwd.init(next(rng), 1)
x = 0
for _ in range(10):
    x = fwd.apply(params, None, x)  # scaffolding: apply now takes the rng argument (None) before x
_report({name for name in _COMPILED if 'threefry' not in name and name not in ('jit(stage)', 'jit(unstack)')}, 10)  # scaffolding: only PRNGSequence's key set-up compiles
