# source: https://github.com/jax-ml/jax/issues/18405
# expect: bad-static-spec at line 42
# runtime: ERROR ValueError
# why: jax.checkpoint's static_argnums=1 only covers a positional second argument; calling with flag as a keyword leaves one positional arg and checkpoint raises ValueError (jit alone would accept it).

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
from functools import partial

from jax import jit, checkpoint

@partial(jit, static_argnums=1)
@partial(checkpoint, static_argnums=1)
def f(x, flag=False):
    if flag:
        x += 1
    return x

f(5, False)  # fine
try:  # scaffolding
    f(5, flag=False)  # raise error below, no problem if only jit though
    _report({"jit(f)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
