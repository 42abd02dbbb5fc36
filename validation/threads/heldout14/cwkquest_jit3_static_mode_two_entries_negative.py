# source: https://www.creativeworksofknowledge.com/cwk-quests/jax-quest/jit/3/
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: the tutorial marks a two-valued string flag static, so "train" and "eval" each compile once and the third call reuses the "train" entry.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from functools import partial


@partial(jax.jit, static_argnames=("mode",))
def f(x, mode):
    if mode == "train":  # OK — mode 는 concrete (static)
        return x * 2
    else:
        return x ** 2


f(jnp.array([1., 2.]), mode="train")  # compile 1
f(jnp.array([1., 2.]), mode="eval")  # compile 2
f(jnp.array([3., 4.]), mode="train")  # cache hit (compile 1)
_report({"jit(f)"}, 3)  # scaffolding
