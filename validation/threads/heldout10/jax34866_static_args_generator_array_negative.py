# source: https://github.com/jax-ml/jax/issues/34866
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: all three arguments of prowler are static (hashable tuples and ints), so the generator-built index table is a trace-time constant; on jax 0.10.2 the call returns a concrete (10, 2) array (not the JitTracer the 0.9.0 report showed) and a repeat call with the same static values hits the cache: one compile for two calls.

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
from itertools import chain # not needed
parkour = chain.from_iterable
import jax ; from jax import numpy as jnp

@jax.jit(static_argnums = range(3) )
def prowler(gridsize, dim=2 , s = (0,0)):
    """ chunk of regular array call (upper pyramidal style)
    s : ( shifting from diagonal in upper pyramidal sense, shifting (negative) from upper value)
    """
    def run(p,il=[]):
        if not p-1:
            return ( il+[j] for j in range(il[-1]+s[0],gridsize[-1]-s[1]))
        return parkour((run(p-1, il = il + [j] )) for j in range(il[-1]+s[0],gridsize[dim-p]-s[1]))
    return jnp.array(tuple( parkour( run(dim-1, il=[j]) for j in range(s[0], gridsize[0]-s[1])) ))

out = prowler( (4,)*2, 2)  # scaffolding: the report's REPL call, assigned
print(type(out).__name__, out.shape)  # scaffolding
out = prowler( (4,)*2, 2)  # scaffolding: same static arguments again
_report({"jit(prowler)"}, 2)  # scaffolding
