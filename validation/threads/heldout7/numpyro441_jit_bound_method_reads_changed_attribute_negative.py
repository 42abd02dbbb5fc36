# source: https://github.com/pyro-ppl/numpyro/issues/441
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: fehiepsi's snippet jits a bound method, changes the attribute it reads and jits the bound method again; on jax 0.10.2 the second jit(f.sample) is a fresh cache entry and returns the new value 2.

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
from jax import jit


class F:
    a = 1

    def sample(self):
        return self.a


f = F()
first = jit(f.sample)()

f.a = 2
second = jit(f.sample)()
print("first:", int(first), "second:", int(second))  # the thread saw 1 and 1
_report({"jit(sample)"}, 2)  # scaffolding
