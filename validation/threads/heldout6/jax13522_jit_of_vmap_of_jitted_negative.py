# source: https://github.com/jax-ml/jax/issues/13522
# expect: none
# runtime: COMPILES 6 CALLS 12
# why: vf = jit(vmap(f)) wraps an already jitted f; the inner jit is inlined into the outer trace, so each of f and vf compiles once per array size: 6 compiles for 12 calls over 3 sizes, none repeated.

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
import jax.lax as lax
import jax.numpy as jnp
import timeit

def f(init_step, init_xs):
    def cond(carry):
        step, xs = carry
        return step < xs.size

    def body(carry):
        step, xs = carry
        xs = xs.at[step].set(1)
        return step + 1, xs

    return lax.while_loop(cond, body, (init_step, init_xs))

f = jax.jit(f)
vf = jax.jit(jax.vmap(f))

def run(size):
    args = 0, jnp.zeros(size)
    vargs = jnp.array([0]), jnp.zeros((1, size))
    time = min(timeit.repeat(lambda: f(*args), number=1, repeat=2))
    vtime = min(timeit.repeat(lambda: vf(*vargs), number=1, repeat=2))
    print(f"size={size} time={time} vtime={vtime}")

run(100)  # scaffolding: sizes / 100
run(200)
run(300)
_report({"jit(f)"}, 12)  # scaffolding: vf compiles under the name jit(f) too
