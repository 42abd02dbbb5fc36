# source: https://github.com/google/objax/issues/208
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: passing DEFAULT_GENERATOR.vars() to objax.Jit makes the generator key an input and output of the compiled function, so each call draws a new number from one compiled executable.

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
# --- scaffolding: objax is not installed; a minimal stand-in for the pieces the issue uses ---
import types
import jax


class _RandomState:  # scaffolding: objax keeps the generator key in a state variable
    def __init__(self, seed=0):
        self.value = jax.random.PRNGKey(seed)


class _Generator:  # scaffolding: objax.random.Generator splits its key on every draw
    def __init__(self, seed=0):
        self.key = _RandomState(seed)

    def __call__(self):
        self.key.value, sub = jax.random.split(self.key.value)
        return sub

    def vars(self):
        return _VarCollection([self.key])


class _VarCollection(list):  # scaffolding
    pass


_DEFAULT_GENERATOR = _Generator(0)


def _uniform(shape, generator=_DEFAULT_GENERATOR):  # scaffolding: objax.random.uniform
    return jax.random.uniform(generator(), shape)


class _Jit:  # scaffolding: objax.Jit feeds the listed variables in and writes them back
    def __init__(self, f, vc):
        self.vc = list(vc)
        everything = list(self.vc) + [_DEFAULT_GENERATOR.key]

        def pure(values, *args):
            saved = [v.value for v in everything]
            for v, x in zip(self.vc, values):
                v.value = x
            out = f(*args)
            new = [v.value for v in self.vc]
            for v, x in zip(everything, saved):  # unlisted variables are not written back
                v.value = x
            return out, new

        self._jitted = jax.jit(pure)

    def __call__(self, *args):
        out, new = self._jitted([v.value for v in self.vc], *args)
        for v, x in zip(self.vc, new):
            v.value = x
        return out


objax = types.SimpleNamespace(
    Jit=_Jit, VarCollection=_VarCollection,
    random=types.SimpleNamespace(uniform=_uniform, DEFAULT_GENERATOR=_DEFAULT_GENERATOR))
# --- end of the objax stand-in ---


def function():
    d = objax.random.uniform((1,))
    return d

function_jit = objax.Jit(function, objax.random.DEFAULT_GENERATOR.vars())  # fixed: the "correct fix"
jit_values = []  # scaffolding
for _ in range(3):
    jit_values.append(function_jit())  # scaffolding: collect the values
    print(jit_values[-1])
print("identical jitted draws:", all(bool((v == jit_values[0]).all()) for v in jit_values))  # scaffolding
_report({"jit(pure)"}, 3)  # scaffolding
