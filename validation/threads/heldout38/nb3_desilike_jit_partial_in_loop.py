# source: https://github.com/cosmodesi/desilike/blob/b075574fa5b5f66042520e0e836e80f8c68ce164/desilike/tests/test_differentiation.py
# expect: jit-in-loop-or-body at line 46
# runtime: COMPILES 10 CALLS 10
# why: jax.jit(partial(unjitted_loop_body)) is rebuilt on every pass of the while loop; each new functools.partial is a new cache key, so every iteration traces and compiles again (10 compiles for 10 calls).

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
def test_jax():
    import timeit
    import numpy as np
    import jax  # scaffolding: stands in for `from desilike.jax import jax` (desilike not installed)
    jax.config.update("jax_enable_x64", True)  # scaffolding: what desilike.jax does on import
    from jax import numpy as jnp  # scaffolding: `from desilike.jax import numpy as jnp`

    from functools import partial

    def unjitted_loop_body(prev_i):
        return prev_i + 1

    def g_inner_jitted_partial(x, n):
        i = 0
        while i < n:
            # Don't do this! each time the partial returns
            # a function with different hash
            i = jax.jit(partial(unjitted_loop_body))(i)
        return x + i

    d = {}
    number = 2  # scaffolding: 10 -> 2
    d['jit called in a loop with partials'] = {'stmt': 'g_inner_jitted_partial(10, 5).block_until_ready()', 'number': number}  # scaffolding: n 20 -> 5

    for key, value in d.items():
        dt = timeit.timeit(**value, globals={**globals(), **locals()}) #/ value['number'] * 1e3
        print('{} takes {: .3f} milliseconds'.format(key, dt))


test_jax()  # scaffolding
_report({"jit(unjitted_loop_body)"}, 10)  # scaffolding: 2 timeit runs x 5 loop iterations
