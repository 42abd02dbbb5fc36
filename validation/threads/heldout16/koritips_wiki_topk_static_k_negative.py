# source: https://git.koritips.com/bluemsi/2nd/src/commit/95cd8bb891bf94ea5dd50e4a490ee17d5707ecf2/10_Wiki/Topics/Other/Just-In-Time%20%28JIT%29.md
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: k is static because it sets the output shape of lax.top_k; the wiki's two calls with k=10 and k=20 are two different programs and compile once each, exactly as its comment says ('k=20 separate compilation').
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from functools import partial

@partial(jax.jit, static_argnums=(1,))
def topk(logits, k):
    return jax.lax.top_k(logits, k)

logits = jnp.arange(100.0)  # scaffolding
# 매 k=10 매 specialized — 매 k=20 매 separate compilation
topk(logits, 10)
topk(logits, 20)  # new compile
_report({"jit(topk)"}, 2)  # scaffolding
