# source: https://github.com/e3nn/e3nn-jax/discussions/74
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the maintainer's answer: mark size static (static_argnames=["size"]) and pass batch=None; jnp.where then has a static output size, so one compile serves the call.
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


import jax
import jax.numpy as jnp


def radius_graph(pos, r_max, *, batch=None, size=None, loop=False, fill_src=-1, fill_dst=-1):  # scaffolding: stand-in for e3nn.radius_graph
    r = jax.vmap(
        jax.vmap(lambda x, y: jnp.linalg.norm(x - y), (None, 0), 0), (0, None), 0
    )(pos, pos)
    if loop:
        mask = r < r_max
    else:
        mask = (r < r_max) & (r > 0)

    src, dst = jnp.where(mask, size=size, fill_value=-1)

    if fill_src != -1:
        src = jnp.where(src == -1, fill_src, src)
    if fill_dst != -1:
        dst = jnp.where(dst == -1, fill_dst, dst)

    if batch is None:
        return src, dst
    return src[batch[src] == batch[dst]], dst[batch[src] == batch[dst]]


key = jax.random.PRNGKey(0)
pos = jax.random.normal(key, (20, 3))
print(jax.jit(radius_graph, static_argnames=["size"])(pos, r_max=0.8, batch=None, size=10))  # scaffolding: print
_report({"jit(radius_graph)"}, 1)  # scaffolding
