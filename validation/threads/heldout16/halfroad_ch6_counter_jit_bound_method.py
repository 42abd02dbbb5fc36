# source: https://github.com/halfroad/JAX
# expect: stale-closure at line 37
# runtime: COMPILES 1 CALLS 3
# why: jax.jit(counter.count) traces the stateful method once, so self.n += 1 runs only at trace time and the compiled function returns the same constant on every call instead of counting up.
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

class Counter:

    def __init__(self):

        self.n = 0

    def count(self):

        self.n += 1

        return self.n

    def reset(self):

        self.n = 0

class CounterV2:

    def __init__(self):

        pass

    def count(self, n):

        n += 1

        return n

def start():

    counter = Counter()

    fast_count = jax.jit(counter.count)

    print(jax.make_jaxpr(counter.count)())

    for _ in range(3):

        print(fast_count())

    counter = CounterV2()

    n = 0

    for i in range(3):

        n = counter.count(n)
        print(jax.make_jaxpr(counter.count)(n))

        print(n)

def main():

    start()

if __name__ == "__main__":

    main()
    _report({"jit(count)"}, 3)  # scaffolding
