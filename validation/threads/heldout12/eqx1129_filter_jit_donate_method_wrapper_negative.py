# source: https://github.com/patrick-kidger/equinox/issues/1129
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the maintainer's pattern: a module-level eqx.filter_jit(donate='all-except-first') function takes the Module as an argument and a thin method forwards to it, so calling the method from a loop hits one compiled function (one compile for three calls).

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
import equinox as eqx


@eqx.filter_jit(donate="all-except-first")
def _do_stuff(aux, x, example):
    return example.loads_of_logic(x, aux)

class Example(eqx.Module):
    w: jax.Array  # scaffolding

    def loads_of_logic(self, x, aux):  # scaffolding: stand-in for the reporter's method body
        return jnp.tanh(self.w @ x) + aux  # scaffolding

    def do_stuff(self, x, aux):
        return _do_stuff(aux, x, self)


model = Example(jnp.eye(4))  # scaffolding
aux = jnp.ones(4)  # scaffolding
calls = 0  # scaffolding
for i in range(3):  # scaffolding: call do_stuff from a loop, donating a fresh x each time
    x = jnp.full(4, float(i))  # scaffolding
    out = model.do_stuff(x, aux)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(_do_stuff)"}, calls)  # scaffolding
